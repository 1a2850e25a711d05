// A hostile MCP server for the tests: one executable, one fault per mode.
//
// Usage: HostilePeer MODE
//
// It speaks raw newline-delimited JSON-RPC on standard input and output with blocking reads
// and writes (no MCPServer, no transport of the library), so every fault is the peer's alone.
// Every mode answers `initialize` (2025-11-25), answers `server/discover` with -32601 (so a
// client falls back to the handshake era), answers `ping`, and lists one tool, `probe`; then it
// misbehaves on `tools/call` as its mode says. `listen-never-acks` speaks 2026-07-28 instead.

import HostilePeerModes
import MCPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: Output

/// Writes all of `bytes` to `descriptor`; when the reader has gone (EPIPE or any other
/// failure), there is nobody left to misbehave for, so the peer exits.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
    guard var base = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
        let written = write(descriptor, base, remaining)
        if written < 0 {
            if errno == EINTR { continue }
            exit(0)
        }
        remaining -= written
        base += written
    }
}

func writeAll(_ bytes: [UInt8], to descriptor: Int32 = STDOUT_FILENO) {
    bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
}

func writeAll(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    writeAll(Array(text.utf8), to: descriptor)
}

/// One message as a line.
func line(_ message: JSONValue) -> [UInt8] {
    var bytes: [UInt8] = []
    // The peer builds only finite numbers; a failure here is a bug in the peer.
    do {
        try JSONWriter().write(message, into: &bytes)
    } catch {
        log("cannot encode a message: \(error)")
        exit(70)
    }
    bytes.append(UInt8(ascii: "\n"))
    return bytes
}

func send(_ message: JSONValue) {
    writeAll(line(message))
}

func respond(_ id: JSONValue, result: JSONValue) {
    send(["jsonrpc": "2.0", "id": id, "result": result])
}

func respond(_ id: JSONValue, errorCode: Int, message: String) {
    send(["jsonrpc": "2.0", "id": id, "error": ["code": .int(errorCode), "message": .string(message)]])
}

func log(_ text: String) {
    writeAll("hostile: \(text)\n", to: STDERR_FILENO)
}

/// Writes `byte` `count` times in `chunkSize` writes, holding one chunk in memory.
func writeRepeated(_ byte: UInt8, count: Int, chunkSize: Int = 1 << 20, to descriptor: Int32 = STDOUT_FILENO) {
    let chunk = [UInt8](repeating: byte, count: min(chunkSize, count))
    var remaining = count
    while remaining > 0 {
        let size = min(remaining, chunk.count)
        chunk.withUnsafeBytes { writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<size]), to: descriptor) }
        remaining -= size
    }
}

func nap(milliseconds: Int) {
    var request = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000)
    var left = timespec()
    while nanosleep(&request, &left) != 0 && errno == EINTR {
        request = left
    }
}

// MARK: Input

/// Reads standard input a line at a time with blocking reads.
struct LineReader {
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    /// The next line without its newline, or `nil` at end of input.
    mutating func next() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return line
            }
            if ended {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return line
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }
}

// MARK: Answers

let modernVersion = "2026-07-28"

func initializeResult() -> JSONValue {
    [
        "protocolVersion": "2025-11-25",
        "capabilities": ["tools": [:]],
        "serverInfo": ["name": "hostile", "version": "1"],
    ]
}

func discoverResult() -> JSONValue {
    [
        "resultType": "complete",
        "supportedVersions": [.string(modernVersion)],
        "capabilities": ["tools": ["listChanged": true]],
        "serverInfo": ["name": "hostile", "version": "1"],
        "ttlMs": 0,
        "cacheScope": "private",
    ]
}

let probeTool: JSONValue = [
    "name": "probe", "description": "Answers ok, or misbehaves", "inputSchema": ["type": "object"],
]

let okResult: JSONValue = ["content": [["type": "text", "text": "ok"]]]

/// The 2026-07-28 stamps every result carries, on a modern connection.
func stamped(_ result: JSONValue, modern: Bool, cacheable: Bool = false) -> JSONValue {
    guard modern, case .object(var object) = result else { return result }
    object["resultType"] = "complete"
    if cacheable {
        object["ttlMs"] = 0
        object["cacheScope"] = "private"
    }
    return .object(object)
}

let manyToolsCount = 20_000
let manyToolsPageSize = 500

func manyToolsPage(cursor: String?) -> JSONValue {
    let start = cursor.flatMap { Int($0) } ?? 0
    let end = min(start + manyToolsPageSize, manyToolsCount)
    var tools: [JSONValue] = []
    tools.reserveCapacity(end - start)
    for index in start..<end {
        let digits = String(index)
        let name = "tool_" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        tools.append([
            "name": .string(name), "description": .string("Tool number \(index)"),
            "inputSchema": ["type": "object", "properties": ["n": ["type": "integer"]]],
        ])
    }
    var page: JSONObject = ["tools": .array(tools)]
    if end < manyToolsCount {
        page["nextCursor"] = .string(String(end))
    }
    return .object(page)
}

/// The bytes of a response envelope up to where the result's value begins.
func responsePrefix(_ id: JSONValue) -> String {
    "{\"jsonrpc\":\"2.0\",\"id\":\(id.description),\"result\":"
}

// MARK: The faults on tools/call

/// Misbehaves on `tools/call` with id `id`; returns normally when the peer goes on reading.
func callFault(_ mode: HostileMode, id: JSONValue, pendingClientReplies: inout JSONValue?) {
    switch mode {
    case .silentInitialize:
        return
    case .silentCall:
        log("call \(id.description)")
    case .crashMidCall:
        log("crashing")
        exit(3)
    case .nonJSON:
        writeAll("this is not json\n")
    case .wrongID:
        log("call \(id.description)")
        let other: JSONValue = if let number = id.intValue { .int(number + 1000) } else { .string("not-\(id.stringValue ?? "")") }
        respond(other, result: okResult)
    case .hugeResult:
        writeAll(responsePrefix(id) + "{\"content\":[{\"type\":\"text\",\"text\":\"")
        writeRepeated(UInt8(ascii: "a"), count: 64 << 20)
        writeAll("\"}]}}\n")
    case .endlessLine:
        writeAll(responsePrefix(id) + "{\"content\":[{\"type\":\"text\",\"text\":\"")
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
        while true {
            writeAll(chunk)  // exits when the write fails
        }
    case .deepResult:
        writeAll(responsePrefix(id))
        writeRepeated(UInt8(ascii: "["), count: 200_000)
        writeRepeated(UInt8(ascii: "]"), count: 200_000)
        writeAll("}\n")
    case .floodNotifications:
        var batch: [UInt8] = []
        batch.reserveCapacity(80 * 1024)
        for index in 0..<200_000 {
            batch += line([
                "jsonrpc": "2.0", "method": "notifications/message",
                "params": ["level": "info", "logger": "hostile", "data": .string("flood \(index)")],
            ])
            if batch.count >= 64 * 1024 {
                writeAll(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        writeAll(batch)
        respond(id, result: okResult)
    case .floodStandardError:
        writeRepeated(UInt8(ascii: "e"), count: 64 << 20, chunkSize: 64 * 1024, to: STDERR_FILENO)
        writeAll("\n", to: STDERR_FILENO)
        respond(id, result: okResult)
    case .drip:
        for byte in line(["jsonrpc": "2.0", "id": id, "result": okResult]) {
            writeAll([byte])
            nap(milliseconds: 1)
        }
    case .clientRequests:
        send([
            "jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
            "params": [
                "messages": [["role": "user", "content": ["type": "text", "text": "hello"]]], "maxTokens": 10,
            ],
        ])
        send(["jsonrpc": "2.0", "id": "s2", "method": "roots/list"])
        pendingClientReplies = ["call": id, "s1": .null, "s2": .null]
    case .manyTools, .closeOutput, .wellBehaved, .boxProbe:
        respond(id, result: okResult)
    case .listenNeverAcks:
        respond(id, result: stamped(okResult, modern: true))
    }
}

// MARK: Main loop

signal(SIGPIPE, SIG_IGN)
guard CommandLine.arguments.count == 2, let mode = HostileMode(rawValue: CommandLine.arguments[1]) else {
    writeAll("usage: HostilePeer MODE (one of: \(HostileMode.allCases.map(\.rawValue).joined(separator: ", ")))\n", to: STDERR_FILENO)
    exit(2)
}

var reader = LineReader()
/// In `client-requests`: the call waiting for the client's replies, and the replies so far.
var pendingClientReplies: JSONValue?

while let bytes = reader.next() {
    if mode == .silentInitialize { continue }
    guard let message = try? JSONValue(parsing: bytes) else {
        log("received a line that is not JSON")
        continue
    }
    let id = message["id"]
    guard let method = message["method"]?.stringValue else {
        // A reply from the client, to a request of client-requests.
        guard var pending = pendingClientReplies, let key = id?.stringValue, pending[key] != nil else { continue }
        if let code = message["error"]?["code"]?.intValue {
            log("reply \(key) error \(code)")
        } else {
            log("reply \(key) result")
        }
        guard case .object(var object) = pending else { continue }
        object[key] = message
        pending = .object(object)
        if object["s1"]?.isNull == false, object["s2"]?.isNull == false, let call = object["call"] {
            respond(call, result: okResult)
            pendingClientReplies = nil
        } else {
            pendingClientReplies = pending
        }
        continue
    }
    guard let id else {
        switch method {
        case "notifications/cancelled":
            log("cancelled \(message["params"]?["requestId"]?.description ?? "?")")
        case "notifications/initialized" where mode == .closeOutput:
            close(STDOUT_FILENO)
        default:
            break
        }
        continue
    }
    let modern = mode == .listenNeverAcks
    switch method {
    case "initialize":
        respond(id, result: initializeResult())
    case "server/discover" where modern:
        respond(id, result: discoverResult())
    case "server/discover":
        respond(id, errorCode: -32601, message: "method not found: server/discover")
    case "ping":
        respond(id, result: [:])
    case "tools/list" where mode == .manyTools:
        respond(id, result: manyToolsPage(cursor: message["params"]?["cursor"]?.stringValue))
    case "tools/list":
        respond(id, result: stamped(["tools": [probeTool]], modern: modern, cacheable: true))
    case "tools/call" where mode == .boxProbe:
        let arguments = message["params"]?["arguments"]
        let text = boxProbe(action: arguments?["action"]?.stringValue ?? "", target: arguments?["target"]?.stringValue ?? "")
        respond(id, result: ["content": [["type": "text", "text": .string(text)]]])
    case "tools/call":
        callFault(mode, id: id, pendingClientReplies: &pendingClientReplies)
    case "subscriptions/listen" where modern:
        log("listen received, never acknowledged")
    default:
        respond(id, errorCode: -32601, message: "method not found: \(method)")
    }
}
exit(0)
