/// A protocol payload that does not have the shape MCP requires.
///
/// Thrown when reading a result or a parameter object, naming the member that is wrong.
/// A server turns it into a `-32602` error; a client reports it as an invalid response.
public struct PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the payload the problem is.
    public var location: JSONPointer
    /// What is wrong, in a sentence.
    public var detail: String

    public init(at location: JSONPointer, _ detail: String) {
        self.location = location
        self.detail = detail
    }

    public var description: String {
        location.isRoot ? detail : "\(location): \(detail)"
    }

    /// A required member that is missing or of the wrong type.
    static func expected(_ type: String, at key: String, found: JSONValue?) -> PayloadError {
        PayloadError(
            at: JSONPointer(tokens: [key]),
            found.map { "\"\(key)\" must be \(type), not \($0.typeName)" } ?? "\"\(key)\" is required")
    }
}
