import MCPCore
import MCPPlatform
import Testing

@testable import MCP

/// Requests a server starts from the reading thread (its inline handler), mixed in one read
/// with messages the handler leaves to the server's loop: every message is handled once, in
/// the order read, on both engines and with both ways of running requests.
@Suite("Requests started from the reading thread")
struct InlineStartTests {
    /// One write: calls, a cancellation of the first (a tool that waits to be cancelled), a
    /// `ping` and a notification (both left to the loop), and calls after them (queued behind
    /// what the loop was left). Every call but the cancelled one is answered, once.
    @Test(
        "Calls, a cancellation, ping and a notification in one read: each handled once",
        .timeLimit(.minutes(1)),
        arguments: [FileDescriptorTransport.EngineChoice.loop, .threads],
        [MCPServer.ConnectionOptions.RequestExecution.shared, .connectionThread])
    func mixedReadIsHandledOnceEach(
        engine: FileDescriptorTransport.EngineChoice, execution: MCPServer.ConnectionOptions.RequestExecution
    ) async throws {
        let server = MCPServer(name: "inline", version: "1")
        try await server.register(name: "echo", description: "Echoes") { _, _ in .text("echo") }
        try await server.register(name: "wait", description: "Waits until cancelled") { _, _ in
            // Suspends until cancelled; the hour is a bound, not a wait the test relies on.
            try await Task.sleep(for: .seconds(3600))
            return .text("not cancelled")
        }
        let toServer = try POSIX.makePipe()
        let fromServer = try POSIX.makePipe()
        let serverEnd = try FileDescriptorTransport(
            readingFrom: toServer.read, writingTo: fromServer.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, engine: engine)
        let clientEnd = try FileDescriptorTransport(
            readingFrom: fromServer.read, writingTo: toServer.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, engine: engine)
        let serving = Task { try await server.run(on: serverEnd, options: MCPServer.ConnectionOptions(requestExecution: execution)) }

        var lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ]
        for id in 4...40 {
            lines.append(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"echo"}}"#)
        }
        // One write, so that the server reads it in as few reads as the pipe allows.
        try POSIX.writeAll(toServer.write, Array((lines.joined(separator: "\n") + "\n").utf8))

        var answered: [Int: Int] = [:]
        var answers = clientEnd.receive().makeAsyncIterator()
        while answered.count < 39 {
            guard case .message(.response(let response))? = try await answers.next() else {
                Issue.record("the server sent something that is not a result")
                break
            }
            guard case .int(let id) = response.id else {
                Issue.record("an answer without an integer id")
                break
            }
            answered[id, default: 0] += 1
        }
        #expect(answered[1] == nil, "the cancelled call was answered")
        #expect(answered.keys.sorted() == Array(2...40))
        #expect(answered.values.allSatisfy { $0 == 1 })

        // A call read on its own, with the loop waiting and nothing behind it, starts from the
        // reading thread, and its answer goes out with nothing else to carry it (on the
        // connection's own thread, too, where answers wait for that thread's next flush).
        try await clientEnd.send(
            JSONRPCMessage(["jsonrpc": "2.0", "id": 98, "method": "tools/call", "params": ["name": "echo"]]))
        guard case .message(.response(let alone))? = try await answers.next() else {
            Issue.record("no answer to the call read on its own")
            return
        }
        // It is the next answer: nothing more was on its way for the cancelled call.
        #expect(alone.id == RequestID(.int(98)))
        await clientEnd.close()
        try await serving.value
    }
}
