extension CallToolResult {
    /// Appends the result as ``json`` reads, written straight to JSON text: the same members,
    /// in the same order, with no intermediate tree.
    ///
    /// A server's answer to a call then costs no allocation for the result's objects and
    /// arrays. Text blocks are written member by member; other blocks, the structured content
    /// and `_meta` go through ``JSONWriter``.
    ///
    /// - Parameter includingStructuredContent: Whether to write `structuredContent` (clients of
    ///   protocol versions before 2025-06-18 read only the text mirror).
    /// - Throws: ``JSONWriteError`` when a value holds a non-finite double; `buffer` then
    ///   holds part of the result.
    package func write(into buffer: inout [UInt8], includingStructuredContent: Bool) throws(JSONWriteError) {
        let writer = JSONWriter()
        buffer.append(contentsOf: #"{"content":["#.utf8)
        for (position, block) in content.enumerated() {
            if position > 0 { buffer.append(UInt8(ascii: ",")) }
            if case .text(let text) = block {
                buffer.append(contentsOf: #"{"type":"text","text":"#.utf8)
                try writer.write(.string(text), into: &buffer)
                buffer.append(UInt8(ascii: "}"))
            } else {
                try writer.write(block.json, into: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "]"))
        if includingStructuredContent, let structuredContent {
            buffer.append(contentsOf: #","structuredContent":"#.utf8)
            try writer.write(structuredContent, into: &buffer)
        }
        buffer.append(contentsOf: (isError ? #","isError":true"# : #","isError":false"#).utf8)
        if let meta {
            buffer.append(contentsOf: #","_meta":"#.utf8)
            try writer.write(.object(meta), into: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }
}
