/// A JSON document read as far as it goes: the value its text makes once what was cut is
/// closed, and whether anything was.
public struct JSONPrefix: Hashable, Sendable {
    /// The value read: the whole document's, or, for a cut one, the value of what was complete
    /// with its open strings, arrays and objects closed.
    public var value: JSONValue
    /// Whether the text was a whole document (nothing was closed or dropped).
    public var isComplete: Bool

    /// Creates a prefix; the reader does this, and tests may too.
    public init(value: JSONValue, isComplete: Bool) {
        self.value = value
        self.isComplete = isComplete
    }
}

extension JSONReader {
    /// Reads a JSON document that may be cut before its end (a streamed answer so far, or one a
    /// model stopped at its length limit): the partial mode of the strict reader.
    ///
    /// A whole document reads as `read(_:)` reads it (``JSONPrefix/isComplete`` is
    /// `true`). A cut one is closed first: an open value string is closed (a cut escape sequence
    /// or UTF-8 sequence dropped), a cut key or a key whose value never came is dropped, and so
    /// is a cut literal or a number that cannot end where it was cut (`tru`, `1.`), a dangling
    /// `,` is dropped, and open arrays and objects are closed; the result is then read strictly.
    /// A number cut between digits reads as the digits so far.
    ///
    /// ```swift
    /// let prefix = try JSONReader().readPrefix(#"{"answer": "The capital is Par"#)
    /// // prefix.value == ["answer": "The capital is Par"], prefix.isComplete == false
    /// ```
    ///
    /// - Throws: ``JSONReadError`` when the text is not the start of a document (the error the
    ///   strict reader gives for the text as it is), or holds nothing complete to read.
    public func readPrefix(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONPrefix {
        let error: JSONReadError
        do {
            return JSONPrefix(value: try read(bytes), isComplete: true)
        } catch let failure {
            error = failure
        }
        var closer = JSONPrefixCloser()
        for byte in bytes { closer.consume(byte) }
        guard let closing = closer.closing(of: bytes) else { throw error }
        var closed = Array(bytes[..<closing.keep])
        closed.append(contentsOf: closing.suffix)
        guard let value = try? read(closed) else { throw error }
        return JSONPrefix(value: value, isComplete: false)
    }

    /// Reads a JSON document that may be cut before its end; see `readPrefix(_:)` on bytes.
    ///
    /// - Throws: ``JSONReadError`` when the text is not the start of a document.
    public func readPrefix(_ text: String) throws(JSONReadError) -> JSONPrefix {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONReadError) in try readPrefix(buffer) }
        }.get()
    }
}
