/// A strict RFC 8259 JSON reader that produces ``JSONValue``s.
///
/// It accepts exactly the JSON grammar: no comments, no trailing commas, no leading
/// zeros, no single quotes, no unescaped control characters in strings, no lone
/// UTF-16 surrogates in `\u` escapes, and only well-formed UTF-8. Whitespace around the
/// top-level value is allowed; anything else after it is an error.
///
/// Numbers without a fraction or exponent that fit in `Int` become ``JSONValue/int(_:)``
/// (`-0` becomes `0`); other numbers become ``JSONValue/double(_:)``, parsed to the
/// nearest `Double` (integers beyond `Int`'s range become doubles too). A number whose
/// magnitude is too large for a `Double` (`1e400`) is an error rather than infinity.
///
/// Nesting is bounded by ``maximumDepth``, so hostile input such as `[[[[…` fails with
/// an error instead of exhausting the stack. Every error carries the byte offset where
/// the problem was found.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
/// let tolerant = try JSONReader(duplicateKeys: .keepLast).read(text)
/// ```
public struct JSONReader: Sendable {
    /// What to do with an object that has the same key twice.
    ///
    /// RFC 8259 leaves this to the implementation. The default, ``reject``, refuses the
    /// document, so that two readers can never disagree about what it means.
    public struct DuplicateKeyPolicy: Hashable, Sendable {
        private let keepsLast: Bool

        /// Refuse the document with ``JSONReadError/Reason/duplicateKey``.
        public static let reject = DuplicateKeyPolicy(keepsLast: false)
        /// Keep the key at its first position with the last value given for it, as
        /// JavaScript's `JSON.parse` does.
        public static let keepLast = DuplicateKeyPolicy(keepsLast: true)

        internal var rejects: Bool { !keepsLast }
    }

    /// The default limit on nesting of arrays and objects.
    public static let defaultMaximumDepth = 512

    /// How deeply arrays and objects may nest; the top-level array or object is depth 1.
    public var maximumDepth: Int
    /// What to do with repeated keys in an object.
    public var duplicateKeys: DuplicateKeyPolicy

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - maximumDepth: How deeply arrays and objects may nest (at least 1).
    ///   - duplicateKeys: What to do with repeated keys in an object.
    public init(
        maximumDepth: Int = JSONReader.defaultMaximumDepth,
        duplicateKeys: DuplicateKeyPolicy = .reject
    ) {
        self.maximumDepth = max(1, maximumDepth)
        self.duplicateKeys = duplicateKeys
    }

    /// Reads one JSON value from UTF-8 bytes.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONValue {
        var parser = Parser(bytes: bytes, maximumDepth: maximumDepth, rejectsDuplicates: duplicateKeys.rejects)
        return try parser.parseDocument()
    }

    /// Reads one JSON value from UTF-8 bytes.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public func read<Bytes: Collection>(_ bytes: Bytes) throws(JSONReadError) -> JSONValue
    where Bytes.Element == UInt8 {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONReadError) in try read(buffer) }
        }
        if let result {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) in try read(buffer) }
        }.get()
    }

    /// Reads one JSON value from a string.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset in the
    ///   string's UTF-8 form.
    public func read(_ text: String) throws(JSONReadError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONReadError) in try read(buffer) }
        }.get()
    }
}

extension JSONValue {
    /// Reads a JSON value from text with the default ``JSONReader``.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public init(parsing text: String) throws(JSONReadError) {
        self = try JSONReader().read(text)
    }

    /// Reads a JSON value from UTF-8 bytes with the default ``JSONReader``.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public init<Bytes: Collection>(parsing bytes: Bytes) throws(JSONReadError) where Bytes.Element == UInt8 {
        self = try JSONReader().read(bytes)
    }
}
