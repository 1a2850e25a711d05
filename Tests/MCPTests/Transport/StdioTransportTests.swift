import Foundation
import Testing

@testable import MCP

/// The environment variable that turns ``StdioTransportTests/childServer()`` into a server.
private let childServerVariable = "ONDEVICE_MCP_STDIO_CHILD_SERVER"

/// This test binary, when it is a standalone executable that can be run again as a child
/// (`swift test` on Linux; not an `xctest` bundle hosted by another tool).
private let testExecutable: String? = {
    guard let path = CommandLine.arguments.first, path.hasSuffix(".xctest"),
        FileManager.default.isExecutableFile(atPath: path)
    else { return nil }
    return path
}()

@Suite("Stdio transport", .serialized)
struct StdioTransportTests {
    /// Skipped in a normal run (reported as skipped, not as a pass). Run as a child with the
    /// environment variable set, it is an echo server on this process's standard input and
    /// output that also prints junk to standard output, which the transport must keep off the wire.
    @Test(
        "Child echo server (runs only when spawned by the end-to-end test)",
        .enabled(if: ProcessInfo.processInfo.environment[childServerVariable] != nil, "a helper process, not a test of its own"))
    func childServer() async throws {
        let transport = try StdioTransport()
        print("junk printed to standard output after the transport protected it")
        for try await inbound in transport.receive() {
            if case .message(let message) = inbound { try await transport.send(message) }
        }
        await transport.close()
    }

    @Test(
        "A stdio server echoes messages, keeps stray prints off the wire, and exits at end of input",
        .enabled(if: testExecutable != nil, "needs a standalone test executable to run as the child"))
    func endToEnd() async throws {
        let executable = try #require(testExecutable)
        var environment = ProcessInfo.processInfo.environment
        environment[childServerVariable] = "1"
        let child = try ProcessTransport.launch(
            executable,
            arguments: ["--testing-library", "swift-testing", "--filter", "StdioTransportTests/childServer"],
            environment: environment,
            standardError: .capture(keepingLast: 1 << 20))
        async let sent: Void = {
            for index in 0..<500 { try await child.send(notification(index)) }
        }()
        var received: [InboundMessage] = []
        for try await inbound in child.receive() {
            received.append(inbound)
            if received.count == 500 { break }
        }
        try await sent
        #expect(received.map(index(of:)) == (0..<500).map { Optional($0) })
        // Closing the child's input is all it takes: no signal is needed.
        await child.close()
        #expect(try await child.exitStatus == .exited(0))
        #expect(await child.capturedStandardErrorAtEnd().contains("junk printed to standard output"))
    }
}
