import Foundation
import MCPCore

/// The cheapest correct MCP client for measuring servers: plain blocking pipe I/O on one
/// thread, requests made from a byte template, every response parsed and checked.
///
/// It does what any client must: the handshake of the era (`initialize` +
/// `notifications/initialized` for 2025-11-25; `server/discover` and the `_meta` envelope on
/// every request for 2026-07-28), unique request ids, and for each response a check that its
/// id is one in flight and that the result is the echoed text. What it leaves out is the
/// machinery of a general client (tasks, actors, timeouts), so that on the 2 shared cores
/// nearly all of the CPU goes to the server under test: a server's calls/s, not a client's.
final class WireDriver {
    enum Era: String {
        case legacy = "2025-11-25"
        case modern = "2026-07-28"
    }

    private let child: RawChild
    private let era: Era
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// Bytes of a response line that has not ended yet.
    private var partial: [UInt8] = []
    private let reader = JSONReader()
    private var nextID = 1

    /// The server process, for its CPU time.
    var processIdentifier: Int32 { child.process.processIdentifier }

    init(executable: String, arguments: [String], era: Era) throws {
        child = try RawChild(executable, arguments)
        self.era = era
        switch era {
        case .legacy:
            try write(
                line(
                    #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire-driver","version":"1"}}}"#
                ))
            let reply = try readOne()
            guard reply["result"]?["protocolVersion"] == "2025-11-25" else { throw BenchmarkFailure("initialize failed: \(reply)") }
            try write(line(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#))
        case .modern:
            try write(line(#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":"# + Self.envelope + "}}"))
            let reply = try readOne()
            guard reply["result"]?["supportedVersions"] != nil else { throw BenchmarkFailure("server/discover failed: \(reply)") }
        }
    }

    deinit {
        child.finish()
    }

    // MARK: Requests

    private static let envelope =
        #"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    private lazy var requestPrefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private lazy var requestSuffix =
        Array(
            (era == .modern
                ? #","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":"# + Self.envelope + "}}"
                : #","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}"#).utf8) + [0x0A]

    /// Appends one `tools/call` line with a fresh id to `bytes`; returns the id.
    private func appendRequest(to bytes: inout [UInt8]) -> Int {
        let id = nextID
        nextID += 1
        bytes.append(contentsOf: requestPrefix)
        bytes.append(contentsOf: String(id).utf8)
        bytes.append(contentsOf: requestSuffix)
        return id
    }

    private func line(_ text: String) -> [UInt8] { Array(text.utf8) + [0x0A] }

    private func write(_ bytes: [UInt8]) throws {
        guard RawResponder.writeAll(child.input, bytes) else { throw BenchmarkFailure("the server stopped reading") }
    }

    // MARK: Responses

    /// Reads what is available and hands each complete response line, parsed, to `body`.
    private func readSome(_ body: (JSONValue) throws -> Void) throws {
        let count = buffer.withUnsafeMutableBytes { Foundation.read(child.output, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { return }
        guard count > 0 else { throw BenchmarkFailure("the server closed its output") }
        try buffer.withUnsafeBufferPointer { bytes in
            var start = 0
            for index in 0..<count where bytes[index] == 0x0A {
                if partial.isEmpty {
                    try body(reader.read(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                } else {
                    partial.append(contentsOf: bytes[start..<index])
                    try body(reader.read(partial))
                    partial.removeAll(keepingCapacity: true)
                }
                start = index + 1
            }
            if start < count { partial.append(contentsOf: bytes[start..<count]) }
        }
    }

    private func readOne() throws -> JSONValue {
        var reply: JSONValue?
        while reply == nil { try readSome { reply = $0 } }
        return reply ?? nil
    }

    /// Checks one `tools/call` response; returns its id.
    private func check(_ response: JSONValue) throws -> Int {
        guard let id = response["id"]?.intValue else { throw BenchmarkFailure("a response without an integer id: \(response)") }
        guard let result = response["result"], result["content"]?[0]?["text"] == "hello", result["isError"] != true else {
            throw BenchmarkFailure("echo failed: \(response)")
        }
        if era == .modern, result["resultType"] != "complete" {
            throw BenchmarkFailure("a 2026-07-28 result without resultType: \(response)")
        }
        return id
    }

    // MARK: Measurements

    /// `calls` calls one at a time; calls/s.
    func sequential(_ calls: Int) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var request: [UInt8] = []
        for _ in 0..<calls {
            request.removeAll(keepingCapacity: true)
            let id = appendRequest(to: &request)
            try write(request)
            let answered = try check(try readOne())
            guard answered == id else { throw BenchmarkFailure("asked \(id), answered \(answered)") }
        }
        return Stats.rate(calls, clock.now - start)
    }

    /// `calls` calls with `window` always in flight; calls/s. Every id must come back once.
    func pipelined(_ calls: Int, window: Int) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var inFlight = Set<Int>()
        var batch: [UInt8] = []
        var sent = 0
        var answered = 0
        for _ in 0..<min(window, calls) {
            inFlight.insert(appendRequest(to: &batch))
            sent += 1
        }
        try write(batch)
        while answered < calls {
            batch.removeAll(keepingCapacity: true)
            try readSome { response in
                let id = try check(response)
                guard inFlight.remove(id) != nil else { throw BenchmarkFailure("an unexpected or repeated id \(id)") }
                answered += 1
                if sent < calls {
                    inFlight.insert(appendRequest(to: &batch))
                    sent += 1
                }
            }
            // At most `window` requests are ever unanswered, so this write never fills the
            // server's input pipe, and the server's replies never fill ours.
            if !batch.isEmpty { try write(batch) }
        }
        return Stats.rate(calls, clock.now - start)
    }
}
