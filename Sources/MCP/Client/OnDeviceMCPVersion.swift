/// The version of this library.
public enum OnDeviceMCPVersion {
    /// The version string, sent as `clientInfo.version` and `serverInfo.version` by default.
    public static let string = "0.1.0"
}
