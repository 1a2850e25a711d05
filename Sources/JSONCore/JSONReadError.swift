/// Why a JSON text could not be read, and where.
///
/// ``offset`` is the byte offset (from 0) in the UTF-8 input where the problem was
/// found; ``reason`` says what kind of problem it is, and ``detail`` says it in words.
/// Match on the reason with `==` or `~=`:
///
/// ```swift
/// do { _ = try JSONValue(parsing: "[1,]") }
/// catch JSONReadError.Reason.trailingComma { … }
/// ```
public struct JSONReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A kind of JSON reading failure.
    ///
    /// An open set: new reasons may be added in later versions, so switch over it with
    /// a `default` case.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// A short name for the reason, such as `"trailingComma"`.
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        public var description: String { name }

        /// The input ended inside a value, or held no value at all.
        public static let unexpectedEndOfInput = Reason("unexpectedEndOfInput")
        /// A byte that cannot start or continue a value at that point.
        public static let unexpectedCharacter = Reason("unexpectedCharacter")
        /// A comma directly before `]` or `}`.
        public static let trailingComma = Reason("trailingComma")
        /// A number that does not follow RFC 8259's grammar (leading zeros, a bare
        /// `.`, a missing exponent, …).
        public static let invalidNumber = Reason("invalidNumber")
        /// A number too large for a `Double`, such as `1e400`.
        public static let numberOutOfRange = Reason("numberOutOfRange")
        /// A backslash escape that JSON does not define, or a malformed `\u` escape.
        public static let invalidEscape = Reason("invalidEscape")
        /// A `\u` escape for half of a UTF-16 surrogate pair without its other half.
        public static let loneSurrogate = Reason("loneSurrogate")
        /// An unescaped control character (U+0000 to U+001F) inside a string.
        public static let controlCharacterInString = Reason("controlCharacterInString")
        /// Bytes that are not well-formed UTF-8.
        public static let invalidUTF8 = Reason("invalidUTF8")
        /// An object with the same key twice, under ``JSONReader/DuplicateKeyPolicy/reject``.
        public static let duplicateKey = Reason("duplicateKey")
        /// Arrays and objects nested deeper than ``JSONReader/maximumDepth``.
        public static let nestingTooDeep = Reason("nestingTooDeep")
        /// Something other than whitespace after the top-level value.
        public static let trailingContent = Reason("trailingContent")

        /// Matches a ``JSONReadError`` with this reason, for `catch` clauses.
        public static func ~= (reason: Reason, error: any Error) -> Bool {
            (error as? JSONReadError)?.reason == reason
        }
    }

    /// What kind of problem this is.
    public let reason: Reason
    /// The byte offset in the input where the problem was found.
    public let offset: Int
    /// A sentence that says what is wrong.
    public let detail: String

    /// Creates an error; the reader does this, and tests may too.
    public init(_ reason: Reason, at offset: Int, _ detail: String) {
        self.reason = reason
        self.offset = offset
        self.detail = detail
    }

    public var description: String {
        "invalid JSON at byte \(offset): \(detail)"
    }
}
