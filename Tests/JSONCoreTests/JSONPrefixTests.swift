import JSONCore
import Testing

/// The reader's partial mode: a document cut before its end reads as what was complete.
@Suite struct JSONPrefixTests {
    @Test(
        "A cut document reads as what was complete, closed",
        arguments: [
            (#"{"answer": "The capital is Par"#, #"{"answer":"The capital is Par"}"#),
            (#"{"a": 1, "b": [true, null"#, #"{"a":1,"b":[true,null]}"#),
            (#"{"a": 1, "b"#, #"{"a":1}"#),
            (#"{"a": 1, "b""#, #"{"a":1}"#),
            (#"{"a": 1, "b" : "#, #"{"a":1}"#),
            (#"{"a": 1, "#, #"{"a":1}"#),
            (#"{"a": tru"#, #"{}"#),
            (#"{"a": 1, "b": 2."#, #"{"a":1}"#),
            (#"{"a": 12"#, #"{"a":12}"#),
            (#"[1, 2, -"#, #"[1,2]"#),
            (#"[1, 2, "#, #"[1,2]"#),
            (#"{"#, #"{}"#),
            (#"[{"x": [{"#, #"[{"x":[{}]}]"#),
            (#"{"a": "line\"#, #"{"a":"line"}"#),
            (#"{"a": "e\u00"#, #"{"a":"e"}"#),
            (#"{"a": "face \uD83D"#, #"{"a":"face "}"#),
            (#"{"a": "face \uD83D\uDE"#, #"{"a":"face "}"#),
            (#"{"a": "face \uD83D\uDE00"#, #"{"a":"face 😀"}"#),
            (#""open"#, #""open""#),
        ])
    func cutDocument(text: String, expected: String) throws {
        let prefix = try JSONReader().readPrefix(text)
        #expect(!prefix.isComplete)
        #expect(prefix.value == (try JSONValue(parsing: expected)))
    }

    @Test("A whole document is complete and reads as the strict reader reads it")
    func wholeDocument() throws {
        let text = #"{"tool": "echo", "arguments": {"text": "hi"}}"#
        let prefix = try JSONReader().readPrefix(text)
        #expect(prefix.isComplete)
        #expect(prefix.value == (try JSONValue(parsing: text)))
    }

    @Test(
        "Text that is not the start of a document fails with the strict reader's error",
        arguments: [#"{"a": 1}}"#, #"{"a": 1] "#, "", "   ", "tru", #"{"a": x"#, #"{"a": 1} {"#, #"[1 2"#])
    func notADocument(text: String) throws {
        let strict = #expect(throws: JSONReadError.self) { try JSONValue(parsing: text) }
        let partial = #expect(throws: JSONReadError.self) { try JSONReader().readPrefix(text) }
        #expect(partial == strict)
    }

    @Test("A UTF-8 sequence cut inside a string is dropped")
    func cutUTF8() throws {
        let bytes = Array(#"{"a": "日本"#.utf8.dropLast())
        let prefix = try bytes.withUnsafeBufferPointer { try JSONReader().readPrefix($0) }
        #expect(prefix.value == ["a": "日"])
        #expect(!prefix.isComplete)
    }

    @Test("Every prefix of a document reads, and only the whole one is complete")
    func everyPrefix() throws {
        let text = #"{"answer": {"city": "Zürich", "days": [1, 22, 3.5], "ok": false, "note": "a\"b\u00e9"}}"#
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let prefix = try bytes.withUnsafeBufferPointer { try JSONReader().readPrefix($0) }
            #expect(prefix.isComplete == (bytes.count == text.utf8.count))
            if prefix.isComplete { #expect(prefix.value == (try JSONValue(parsing: text))) }
            bytes.removeLast()
        }
    }
}
