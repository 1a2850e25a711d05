import MCPPlatform
import Testing

@testable import MCP

@Suite("Process transport", .serialized)
struct ProcessTransportTests {
    @Test("cat echoes 1,000 messages back, in order")
    func catEchoes() async throws {
        let cat = try ProcessTransport.launch("/bin/cat")
        #expect(cat.processIdentifier > 0)
        async let sent: Void = { for index in 0..<1000 { try await cat.send(notification(index)) } }()
        var indices: [Int] = []
        for try await message in cat.receive() {
            if let value = index(of: message) { indices.append(value) }
            if indices.count == 1000 { break }
        }
        try await sent
        #expect(indices == Array(0..<1000))
        await cat.close()
        #expect(try await cat.exitStatus == .exited(0))
    }

    @Test("The stream carries the child's output until the child exits on its own")
    func echoUntilExit() async throws {
        let cat = try ProcessTransport.launch("cat")  // looked up in PATH
        try await cat.send(notification(1))
        try await cat.send(notification(2))
        var indices: [Int] = []
        for try await message in cat.receive() {
            if let value = index(of: message) { indices.append(value) }
            if indices.count == 2 { break }
        }
        #expect(indices == [1, 2])
        await cat.close()
        #expect(try await cat.exitStatus == .exited(0))
    }

    @Test("A child that exits finishes the stream, with its exit status")
    func exitStatus() async throws {
        let child = try ProcessTransport.launch("/bin/sh", arguments: ["-c", "exit 3"])
        #expect(try await collect(child.receive()).isEmpty)
        #expect(try await child.exitStatus == .exited(3))
        await child.close()
    }

    @Test("A command that does not exist fails to launch, naming the command")
    func missingCommand() throws {
        let error = #expect(throws: TransportError.self) {
            try ProcessTransport.launch("ondevice-mcp-no-such-command-\(UInt32.random(in: 0...UInt32.max))")
        }
        #expect(error == TransportError.launchFailure(""))
        #expect(error?.detail.contains("ondevice-mcp-no-such-command") == true)
    }

    @Test("A path that is not executable fails to launch, naming the path")
    func notExecutable() throws {
        let error = #expect(throws: TransportError.self) {
            try ProcessTransport.launch("/etc/hosts")
        }
        #expect(error == TransportError.launchFailure(""))
        #expect(error?.detail.contains("/etc/hosts") == true)
    }

    @Test("A working directory that does not exist fails to launch")
    func missingDirectory() throws {
        let error = #expect(throws: TransportError.self) {
            try ProcessTransport.launch("/bin/cat", currentDirectory: "/ondevice-mcp/no/such/directory")
        }
        #expect(error?.detail.contains("/ondevice-mcp/no/such/directory") == true)
    }

    @Test("The environment and working directory reach the child")
    func environmentAndDirectory() async throws {
        let script = #"printf '{"jsonrpc":"2.0","method":"x","params":{"dir":"%s","v":"%s"}}\n' "$PWD" "$FOO""#
        let child = try ProcessTransport.launch(
            "sh", arguments: ["-c", script],
            environment: ["FOO": "bar baz", "PATH": "/usr/bin:/bin"],
            currentDirectory: "/tmp")
        let received = try await collect(child.receive())
        #expect(
            received == [
                .message(.notification(JSONRPCNotification(method: "x", params: ["dir": "/tmp", "v": "bar baz"])))
            ])
        #expect(try await child.exitStatus == .exited(0))
        await child.close()
    }

    @Test("Captured standard error returns what the child wrote there")
    func standardErrorCapture() async throws {
        let child = try ProcessTransport.launch(
            "/bin/sh", arguments: ["-c", "echo 'something went wrong' >&2; exit 1"], standardError: .capture)
        #expect(try await collect(child.receive()).isEmpty)
        #expect(try await child.exitStatus == .exited(1))
        #expect(await child.capturedStandardErrorAtEnd() == "something went wrong\n")
        #expect(child.capturedStandardError() == "something went wrong\n")
        await child.close()
    }

    @Test("Capture keeps only the last bytes")
    func standardErrorCaptureLimit() async throws {
        let child = try ProcessTransport.launch(
            "/bin/sh", arguments: ["-c", "printf '0123456789' >&2"], standardError: .capture(keepingLast: 4))
        #expect(try await child.exitStatus == .exited(0))
        #expect(await child.capturedStandardErrorAtEnd() == "6789")
        await child.close()
    }

    @Test("Discarded standard error is not captured")
    func standardErrorDiscard() async throws {
        let child = try ProcessTransport.launch(
            "/bin/sh", arguments: ["-c", "echo noise >&2"], standardError: .discard)
        #expect(try await child.exitStatus == .exited(0))
        #expect(await child.capturedStandardErrorAtEnd() == "")
        await child.close()
    }

    @Test("close() ends a child that exits on end of input without any signal")
    func closeCooperativeChild() async throws {
        let cat = try ProcessTransport.launch("/bin/cat", terminationGracePeriod: .seconds(60))
        await cat.close()
        #expect(try await cat.exitStatus == .exited(0))
        await #expect(throws: TransportError.closed) { try await cat.send(notification(1)) }
    }

    @Test("close() sends SIGTERM to a child that ignores end of input")
    func closeWithTerminate() async throws {
        let child = try ProcessTransport.launch(
            "/bin/sh", arguments: ["-c", "exec sleep 1000"], terminationGracePeriod: .milliseconds(100))
        await child.close()
        #expect(try await child.exitStatus == .signaled(POSIX.terminateSignal))
    }

    @Test("close() kills a child that ignores end of input and SIGTERM")
    func closeWithKill() async throws {
        let child = try ProcessTransport.launch(
            "/bin/sh", arguments: ["-c", "trap '' TERM; while :; do sleep 1; done"],
            terminationGracePeriod: .milliseconds(100))
        await child.close()
        await child.close()  // idempotent
        #expect(try await child.exitStatus == .signaled(POSIX.killSignal))
    }

    @Test("Sending to a child that has exited throws TransportError.closed")
    func sendToExitedChild() async throws {
        let child = try ProcessTransport.launch("/bin/sh", arguments: ["-c", "exit 0"])
        #expect(try await child.exitStatus == .exited(0))
        // The first send is queued; the writer then meets the broken pipe and ends.
        try await child.send(notification(0))
        await child.connection.waitUntilWritten()
        await #expect(throws: TransportError.closed) { try await child.send(notification(1)) }
        await child.close()
    }
}
