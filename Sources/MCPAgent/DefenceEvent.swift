/// Something a defence did, for the app to log or show (never shown to the model).
///
/// Text in an event has secrets redacted. A struct with an open ``Kind``, so new kinds of
/// event can be added without breaking a `switch`.
public struct DefenceEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A call was declined by the policy, a person or the data-flow guard.
        public static let declined = Kind(rawValue: "declined")
        /// A call ran after a person approved it.
        public static let approved = Kind(rawValue: "approved")
        /// Secrets were removed from arguments or output.
        public static let redacted = Kind(rawValue: "redacted")
        /// Invisible characters or frame imitations were removed from a server's text.
        public static let cleaned = Kind(rawValue: "cleaned")
        /// Part of an untrusted tool definition that reads as orders to the model was withheld
        /// from it, or the tool was not bridged.
        public static let withheld = Kind(rawValue: "withheld")
        /// A call repeated one made earlier in the turn (same tool, same arguments) and was
        /// answered with that call's output instead of running again.
        public static let repeated = Kind(rawValue: "repeated")

        public var description: String { rawValue }
    }

    public var kind: Kind
    /// The tool's name (as the model knows it).
    public var tool: String
    /// What happened, in a sentence.
    public var message: String
    public init(kind: Kind, tool: String, message: String) {
        self.kind = kind
        self.tool = tool
        self.message = message
    }

    public var description: String { "\(kind): \(tool): \(message)" }
}
