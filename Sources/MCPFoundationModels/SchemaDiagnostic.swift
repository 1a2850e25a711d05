public import MCPCore

/// Something the JSON Schema → generation schema conversion could not carry over exactly.
///
/// Every keyword of a tool's `inputSchema` is either mapped onto the generation schema or
/// reported as a diagnostic: nothing is dropped silently. Constraints that a diagnostic
/// reports are still enforced where it matters, because the bridge validates the model's
/// arguments against the original `inputSchema` before it calls the tool.
public struct SchemaDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How much a diagnostic matters.
    public enum Severity: String, Hashable, Sendable, Comparable, CustomStringConvertible {
        /// An annotation with no effect on which arguments are valid (`title`, `default`, `examples`, …).
        case note
        /// A constraint generation cannot enforce; the arguments are still validated before the call.
        case warning
        /// A part of the schema that could not be converted; a permissive stand-in was used.
        case error

        public var description: String { rawValue }

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// How much it matters.
    public var severity: Severity
    /// Where the keyword is in the input schema.
    public var location: JSONPointer
    /// What happened, in one sentence.
    public var message: String

    public init(severity: Severity, location: JSONPointer, message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// `warning at /properties/date/format: …`.
    public var description: String {
        "\(severity) at \(location.description.isEmpty ? "/" : location.description): \(message)"
    }
}
