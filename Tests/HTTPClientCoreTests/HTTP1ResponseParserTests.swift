import Testing

@testable import HTTPClientCore

/// The HTTP/1.1 response reader behind the socket exchanger, fed bytes split anywhere.
@Suite("HTTP/1.1 response parser")
struct HTTP1ResponseParserTests {
    typealias Event = HTTP1ResponseParser.Event

    /// Feeds `text` to a parser in pieces of `piece` bytes (then the connection's end, when
    /// `close`), and returns the head, the body and how it ended.
    static func parse(
        _ text: String, method: String = "POST", piece: Int, close: Bool = false
    ) throws -> (head: Event?, body: String, end: Event?) {
        var parser = HTTP1ResponseParser(requestMethod: method)
        var events: [Event] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let next = min(bytes.count, index + piece)
            events += try parser.feed(bytes[index..<next])
            index = next
        }
        if close { events += try parser.finish() }
        var head: Event?
        var body: [UInt8] = []
        var end: Event?
        for event in events {
            switch event {
            case .head: head = event
            case .body(let chunk): body += chunk
            case .end: end = event
            }
        }
        return (head, String(decoding: body, as: UTF8.self), end)
    }

    static let pieces = [1, 2, 3, 7, 64, 4096]

    @Test("A Content-Length body, split anywhere", arguments: pieces)
    func contentLength(piece: Int) throws {
        let parsed = try Self.parse(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"jsonrpc\":1}", piece: piece)
        #expect(parsed.head == .head(status: 200, headers: ["content-type": "application/json", "content-length": "13"]))
        #expect(parsed.body == "{\"jsonrpc\":1}")
        #expect(parsed.end == .end(reusable: true))
    }

    @Test("A chunked body with extensions and trailers, split anywhere", arguments: pieces)
    func chunked(piece: Int) throws {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n1A\r\n, abcdefghijklmnopqrstuvwx\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let parsed = try Self.parse(text, piece: piece)
        #expect(parsed.body == "hello, abcdefghijklmnopqrstuvwx")
        #expect(parsed.end == .end(reusable: true))
    }

    @Test("An interim 100 Continue is skipped; the real head follows", arguments: pieces)
    func interim(piece: Int) throws {
        let parsed = try Self.parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n", piece: piece)
        #expect(parsed.head == .head(status: 202, headers: ["content-length": "0"]))
        #expect(parsed.end == .end(reusable: true))
    }

    @Test("A body without a length runs to the end of the connection, which is then not reused")
    func untilClose() throws {
        let parsed = try Self.parse("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: 1\n\n", piece: 5, close: true)
        #expect(parsed.body == "data: 1\n\n")
        #expect(parsed.end == .end(reusable: false))
    }

    @Test(
        "Whether the connection may carry another request",
        arguments: [
            ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.1 204 No Content\r\n\r\n", true),
        ])
    func reuse(text: String, reusable: Bool) throws {
        #expect(try Self.parse(text, piece: 4096).end == .end(reusable: reusable))
    }

    @Test("A HEAD response has no body, whatever its Content-Length says")
    func headRequest() throws {
        let parsed = try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n", method: "HEAD", piece: 4096)
        #expect(parsed.body.isEmpty)
        #expect(parsed.end == .end(reusable: true))
    }

    @Test("Repeated fields are joined; names are lowercased; values trimmed")
    func fields() throws {
        let parsed = try Self.parse(
            "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer a\r\nwww-authenticate:  Basic b \r\nContent-Length: 0\r\n\r\n", piece: 3)
        #expect(parsed.head == .head(status: 401, headers: ["www-authenticate": "Bearer a, Basic b", "content-length": "0"]))
    }

    @Test(
        "What is not HTTP/1.x is an error",
        arguments: [
            "SSH-2.0-OpenSSH_9.6\r\n\r\n",
            "HTTP/1.1 20 OK\r\n\r\n",
            "HTTP/2 200\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: lots\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
            "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\n folded: value\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab",
            "HTTP/1.1 101 Switching Protocols\r\n\r\n",
        ])
    func malformed(text: String) {
        #expect(throws: HTTP1ResponseParser.Malformed.self) { try Self.parse(text, piece: 4096) }
    }

    @Test("A head longer than the limit is refused as soon as it passes it, not buffered")
    func oversizedHead() throws {
        var parser = HTTP1ResponseParser(requestMethod: "GET", maximumHeadBytes: 1024)
        _ = try parser.feed(Array("HTTP/1.1 200 OK\r\n".utf8))
        let filler = Array(repeating: UInt8(ascii: "a"), count: 600)
        _ = try parser.feed(Array("X-A: ".utf8) + filler)
        #expect(throws: HTTP1ResponseParser.Malformed.self) { try parser.feed(filler) }
    }

    @Test(
        "A connection that ends early is an error",
        arguments: [
            "",
            "HTTP/1.1 200 OK\r\nContent-Le",
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
        ])
    func truncated(text: String) {
        #expect(throws: HTTP1ResponseParser.Malformed.self) { try Self.parse(text, piece: 4096, close: true) }
    }
}
