import Testing

@testable import HTTPClientCore

/// Feeds `text` to a parser in chunks cut at `cuts` (byte offsets) and returns every event.
private func events(_ text: String, cuts: [Int] = [], limit: Int = 1 << 20) throws -> [SSEEvent] {
    var parser = SSEParser(maximumEventBytes: limit)
    let bytes = Array(text.utf8)
    var events: [SSEEvent] = []
    var start = 0
    for cut in cuts.sorted() + [bytes.count] where cut >= start {
        events += try parser.feed(bytes[start..<cut])
        start = cut
    }
    return events
}

private func event(_ data: String, type: String = "message", id: String? = nil) -> SSEEvent {
    SSEEvent(type: type, data: Array(data.utf8), id: id)
}

@Suite("SSE parser")
struct SSEParserTests {
    @Test("one event per blank line, with the default type")
    func simpleEvents() throws {
        #expect(try events("data: one\n\ndata: two\n\n") == [event("one"), event("two")])
    }

    @Test("lines end with LF, CR LF or CR", arguments: ["\n", "\r\n", "\r"])
    func lineEnds(end: String) throws {
        let text = "event: note\(end)data: a\(end)data: b\(end)\(end)data: c\(end)\(end)"
        #expect(try events(text) == [event("a\nb", type: "note"), event("c")])
    }

    @Test("a CR at the end of one chunk and the LF at the start of the next are one line end")
    func splitCRLF() throws {
        let text = "data: a\r\n\r\ndata: b\r\n\r\n"
        for cut in 0...text.utf8.count {
            #expect(try events(text, cuts: [cut]) == [event("a"), event("b")], "cut at \(cut)")
        }
    }

    @Test("chunk boundaries anywhere give the same events")
    func everySplit() throws {
        let text =
            "\u{FEFF}: hello\r\nid: 7\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n\r\nretry: 250\ndata:é\rdata\n\n"
        let whole = try events(text)
        #expect(whole == [event("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}", id: "7"), event("é\n", id: "7")])
        let count = text.utf8.count
        for first in 0...count {
            #expect(try events(text, cuts: [first]) == whole, "cut at \(first)")
        }
        // Byte by byte.
        #expect(try events(text, cuts: Array(0...count)) == whole)
        // Pairs of cuts.
        for first in stride(from: 0, through: count, by: 3) {
            for second in stride(from: first, through: count, by: 5) {
                #expect(try events(text, cuts: [first, second]) == whole)
            }
        }
    }

    @Test("comments and keep-alives produce nothing")
    func comments() throws {
        #expect(try events(": ping\r\n\r\n:\n\n: another\ndata: x\n\n") == [event("x")])
    }

    @Test("one space after the colon is removed, no more")
    func spaceAfterColon() throws {
        #expect(try events("data:  two spaces\n\ndata:none\n\n") == [event(" two spaces"), event("none")])
    }

    @Test("a field with no colon has an empty value; data with an empty value still makes an event")
    func fieldWithoutColon() throws {
        #expect(try events("data\n\n") == [event("")])
        #expect(try events("data\ndata\n\n") == [event("\n")])
    }

    @Test("the last event id persists across events; an empty id resets it; an id with NUL is ignored")
    func eventIDs() throws {
        var parser = SSEParser(maximumEventBytes: 1024)
        #expect(try parser.feed(Array("id: 1\ndata: a\n\ndata: b\n\n".utf8)) == [event("a", id: "1"), event("b", id: "1")])
        #expect(try parser.feed(Array("id: 2\u{0}x\ndata: c\n\n".utf8)) == [event("c", id: "1")])
        #expect(try parser.feed(Array("id\ndata: d\n\n".utf8)) == [event("d", id: nil)])
        #expect(parser.lastEventID == nil)
    }

    @Test("an event with no data is not dispatched but sets the last event id (a priming event)")
    func primingEvent() throws {
        var parser = SSEParser(maximumEventBytes: 1024)
        #expect(try parser.feed(Array("id: prime-1\nevent: message\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "prime-1")
    }

    @Test(
        "an id takes effect when its event ends: a stream cut in the middle of an event keeps the last complete one",
        arguments: [false, true])
    func idAtDispatch(finished: Bool) throws {
        var parser = SSEParser(maximumEventBytes: 1024)
        #expect(try parser.feed(Array("id: 1\ndata: a\n\nid: 2\ndata: {\"jsonrpc\":".utf8)) == [event("a", id: "1")])
        #expect(parser.lastEventID == "1")
        if finished {
            #expect(parser.finish() == true)
            #expect(parser.lastEventID == "1")
            // After the end, the cut event's id is forgotten: the next event without one has the last complete id.
            #expect(try parser.feed(Array("data: b\n\n".utf8)) == [event("b", id: "1")])
        } else {
            #expect(try parser.feed(Array("\n\n".utf8)) == [event("{\"jsonrpc\":", id: "2")])
            #expect(parser.lastEventID == "2")
        }
    }

    @Test("events completed before an oversized one in the same bytes are still handed over")
    func eventsBeforeOversized() {
        var parser = SSEParser(maximumEventBytes: 20)
        var events: [SSEEvent] = []
        #expect(throws: SSEParser.EventTooLarge(limit: 20)) {
            try parser.feed(Array("id: 1\ndata: a\n\ndata: \(String(repeating: "x", count: 40))\n\n".utf8), into: &events)
        }
        #expect(events == [event("a", id: "1")])
        #expect(parser.lastEventID == "1")
    }

    @Test("retry takes digits only")
    func retry() throws {
        var parser = SSEParser(maximumEventBytes: 1024)
        _ = try parser.feed(Array("retry: 1500\n\n".utf8))
        #expect(parser.reconnectionTime == 1500)
        _ = try parser.feed(Array("retry: 2s\nretry: -1\nretry:\n\n".utf8))
        #expect(parser.reconnectionTime == 1500)
    }

    @Test("unknown fields are ignored; an empty event type means message")
    func unknownFields() throws {
        #expect(try events("foo: bar\nevent:\ndata: x\n\n") == [event("x")])
        #expect(try events("event: endpoint\ndata: /messages?session=1\n\n") == [event("/messages?session=1", type: "endpoint")])
    }

    @Test("a byte order mark is removed once, at the start only")
    func byteOrderMark() throws {
        let text = "\u{FEFF}data: a\n\n"
        for cut in 0...4 {
            #expect(try events(text, cuts: [cut]) == [event("a")])
        }
        #expect(try events("\u{FEFF}\u{FEFF}data: a\n\n").isEmpty)  // the second is part of a field name
        // A partial mark at the start is data after all.
        var parser = SSEParser(maximumEventBytes: 64)
        #expect(try parser.feed([0xEF, 0xBB]).isEmpty)
        #expect(parser.isMidEvent)
    }

    @Test("an event over the limit fails as soon as it passes it", arguments: [1, 7, 64])
    func eventLimit(chunk: Int) throws {
        var parser = SSEParser(maximumEventBytes: 100)
        let big = Array(("data: " + String(repeating: "x", count: 500) + "\n\n").utf8)
        var fedUntilFailure = 0
        #expect(throws: SSEParser.EventTooLarge(limit: 100)) {
            var offset = 0
            while offset < big.count {
                let end = min(offset + chunk, big.count)
                fedUntilFailure = end
                _ = try parser.feed(big[offset..<end])
                offset = end
            }
        }
        #expect(fedUntilFailure <= 101 + chunk)
    }

    @Test("the limit counts every line of one event, and resets after it")
    func limitPerEvent() throws {
        let line = "data: " + String(repeating: "y", count: 40) + "\n"
        // Two lines of 47 bytes fit in 100; three do not.
        #expect(try events(line + line + "\n" + line + line + "\n", limit: 100).count == 2)
        #expect(throws: SSEParser.EventTooLarge.self) { try events(line + line + line + "\n", limit: 100) }
        // Comment floods without a blank line are bounded too.
        #expect(throws: SSEParser.EventTooLarge.self) { try events(String(repeating: ": keep-alive\n", count: 20), limit: 100) }
        // An event exactly at the limit is accepted.
        let exact = "data: " + String(repeating: "z", count: 93) + "\n\n"
        #expect(try events(exact, limit: 100).count == 1)
    }

    @Test("finish says whether the stream ended in the middle of an event")
    func finishMidEvent() throws {
        var parser = SSEParser(maximumEventBytes: 1024)
        _ = try parser.feed(Array("data: complete\n\n: comment\n".utf8))
        #expect(parser.finish() == false)
        _ = try parser.feed(Array("data: {\"jsonrpc\":".utf8))
        #expect(parser.finish() == true)
        _ = try parser.feed(Array("data: whole line\n".utf8))
        #expect(parser.finish() == true)
    }
}
