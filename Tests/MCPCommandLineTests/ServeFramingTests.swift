import JSONCore
import OnDeviceMCPTestSupport
import Testing

/// A frame written to `serve`, and the exact bytes of the `id` its answer must carry.
struct FramingCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// The frame's text, before its newline.
    let frame: [UInt8]
    /// Bytes of filler after `frame` (a frame longer than serve's 16 MiB limit).
    var filler = 0
    let code: Int
    /// The answer's `id` as it must appear on the wire.
    let id: String
    var testDescription: String { name }

    init(_ name: String, _ frame: String, filler: Int = 0, code: Int, id: String) {
        self.name = name
        self.frame = Array(frame.utf8)
        self.filler = filler
        self.code = code
        self.id = id
    }

    /// Over `serve`'s default frame limit of 16 MiB.
    static let overLimit = 17 << 20

    static let all: [FramingCase] = [
        FramingCase("broken JSON", #"{"jsonrpc":"2.0","id":1,"method":"ping""#, code: -32700, id: "null"),
        FramingCase("a NUL inside a frame", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"pi\u{0}ng\"}", code: -32700, id: "null"),
        FramingCase("a frame cut short", #"{"jsonrpc":"2.0","id":3,"meth"#, code: -32700, id: "null"),
        FramingCase(
            "nested too deeply", #"{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":"# + String(repeating: "[", count: 600),
            code: -32700, id: "null"),
        FramingCase(
            "a cut reply to one of the server's requests", #"{"jsonrpc":"2.0","id":5,"result":{"roots":["#, code: -32700, id: "null"),
        FramingCase("a reply in the wrong version", #"{"jsonrpc":"1.0","id":6,"result":{}}"#, code: -32600, id: "null"),
        FramingCase("a request in the wrong version", #"{"jsonrpc":"1.0","id":7,"method":"ping"}"#, code: -32600, id: "null"),
        FramingCase(
            "a request whose params are not structured", #"{"jsonrpc":"2.0","id":"p7","method":"ping","params":7}"#, code: -32600,
            id: #""p7""#),
        FramingCase(
            "an oversized request whose first bytes are well-formed",
            #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"clock_now","arguments":{"timezone":""#,
            filler: overLimit, code: -32600, id: "8"),
        FramingCase(
            "an oversized reply", #"{"jsonrpc":"2.0","id":9,"result":{"text":""#, filler: overLimit, code: -32600, id: "null"),
        FramingCase(
            "an oversized frame broken before its id", #"{"jsonrpc":"2.0","x":tru,"id":10,"method":"ping","params":{"a":""#,
            filler: overLimit, code: -32600, id: "null"),
        FramingCase(
            "an oversized frame whose method is not yet read", #"{"jsonrpc":"2.0","id":11,"meth"#, filler: overLimit, code: -32600,
            id: "null"),
    ]
}

@Suite("serve answers frames that are not messages, as a real process", .serialized)
struct ServeFramingTests {
    /// The raw text of the `id` member of an answer, as written (`null`, `7`, `"x"`).
    static func rawID(of line: [UInt8]) -> String? {
        let key = Array(#""id":"#.utf8)
        guard let start = line.indices.first(where: { line[$0...].starts(with: key) }) else { return nil }
        let value = line[(start + key.count)...].prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "}") }
        return String(decoding: value, as: UTF8.self)
    }

    @Test("Each bad frame is answered with exactly the id the rule allows, and the connection goes on", arguments: FramingCase.all)
    func answerID(_ testCase: FramingCase) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let serve = try SpawnedProcess.launch(try BuiltProducts.ondeviceMCP(), arguments: ["serve", "--data-dir", directory.path])
        #expect(await onThread { testCase.frame.withUnsafeBytes { serve.writeBlocking($0) } })
        if testCase.filler > 0 {
            #expect(await serve.writeRepeated(UInt8(ascii: "x"), count: testCase.filler))
        }
        #expect(await serve.write("\n" + #"{"jsonrpc":"2.0","id":"after","method":"ping"}"# + "\n"))
        let outcome = try await serve.finish(hangGuard: .seconds(60))
        #expect(outcome.status == .exited(0), "\(outcome.standardErrorTail)")
        let lines = outcome.standardOutput.split(separator: UInt8(ascii: "\n")).map(Array.init)
        try #require(lines.count == 2, "\(outcome.output)")
        #expect(Self.rawID(of: lines[0]) == testCase.id, "\(outcome.output)")
        let answer = try JSONValue(parsing: lines[0])
        #expect(answer["error"]?["code"] == .int(testCase.code), "\(outcome.output)")
        #expect(Self.rawID(of: lines[1]) == #""after""#)
    }

    @Test("Batch members that are not requests are answered with id null; requests keep theirs")
    func batchMembers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let serve = try SpawnedProcess.launch(
            try BuiltProducts.ondeviceMCP(), arguments: ["serve", "--data-dir", directory.path], standardOutput: .lines)
        var output = serve.outputLines().makeAsyncIterator()
        let initialize =
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        let batch =
            #"[{"jsonrpc":"2.0","id":21,"error":"bad"},{"jsonrpc":"1.0","id":22,"result":1},{"jsonrpc":"2.0","id":23},{"jsonrpc":"2.0","id":24,"method":"ping"}]"#
        // Batches are processed once 2025-03-26 is agreed: the handshake's answer comes first.
        #expect(await serve.write(initialize + "\n"))
        let handshake = try #require(await output.next())
        #expect(Self.rawID(of: handshake) == "0")
        #expect(await serve.write(batch + "\n"))
        let answer = try #require(await output.next())
        let outcome = try await serve.finish(hangGuard: .seconds(60))
        #expect(outcome.status == .exited(0))
        let answers = try #require(try JSONValue(parsing: answer).arrayValue, "\(String(decoding: answer, as: UTF8.self))")
        #expect(answers.map { $0["id"] } == [.null, .null, .null, .int(24)], "\(answers)")
        #expect(answers.prefix(3).allSatisfy { $0["error"]?["code"] == -32600 })
    }
}
