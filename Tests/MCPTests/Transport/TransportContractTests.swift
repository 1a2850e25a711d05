import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// What the public `Transport` protocol promises a third-party transport: the defaults of its
/// requirements, and that the client uses what a transport implements (no hidden casts).
@Suite("Transport contract", .timeLimit(.minutes(1)))
struct TransportContractTests {
    /// A transport written against the public protocol only, over an in-process pair: it
    /// forwards messages and implements none of the requirements that have defaults.
    struct Minimal: Transport {
        let inner: InProcessTransport
        func send(_ message: JSONRPCMessage) async throws { try await inner.send(message) }
        func receive() -> AsyncThrowingStream<InboundMessage, any Error> { inner.receive() }
        func close() async { await inner.close() }
    }

    /// The same, saying why its peer went away and enforcing result limits while it reads
    /// (here: by replacing a reply over its call's limit with the report the protocol asks for).
    struct Reporting: Transport {
        let inner: InProcessTransport
        let resultLimits: ResultLimits? = ResultLimits()

        func send(_ message: JSONRPCMessage) async throws { try await inner.send(message) }
        func close() async { await inner.close() }
        func connectionEndReason() async -> String? { "the test peer hung up on purpose" }

        func receive() -> AsyncThrowingStream<InboundMessage, any Error> {
            let upstream = inner.receive()
            let limits = resultLimits
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await inbound in upstream {
                            if case .message(.response(let response)) = inbound, let limits,
                                let limit = limits.limit(for: response.id), response.result.estimatedByteCount > limit
                            {
                                limits.noteExceeded(response.id, limit: limit)
                                continuation.yield(
                                    .invalid(InvalidMessage(id: nil, error: .invalidRequest("over the limit"), apparentID: response.id)))
                            } else {
                                continuation.yield(inbound)
                            }
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    static func blobServer() async throws -> MCPServer {
        let server = MCPServer(name: "blobs", version: "1")
        try await server.register(
            name: "blob", description: "Returns size characters",
            inputSchema: ["type": "object", "properties": ["size": ["type": "integer"]]]
        ) { arguments, _ in
            .text(String(repeating: "x", count: arguments["size"]?.intValue ?? 0))
        }
        return server
    }

    @Test("a transport with only send, receive and close gets the documented defaults")
    func defaults() async {
        let (one, _) = InProcessTransport.makePair()
        let transport = Minimal(inner: one)
        #expect(transport.resultLimits == nil)
        await transport.waitForOutboundRoom()
        #expect(await transport.connectionEndReason() == nil)
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            #expect(transport.connectionExecutor == nil)
        }
    }

    @Test("a descriptor transport names its reading thread as its connection executor, and a server loop runs there")
    func descriptorTransportExecutor() async throws {
        guard #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) else { return }
        let input = try POSIX.makePipe()
        let output = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(readingFrom: input.read, writingTo: output.write)
        let executor = try #require(transport.connectionExecutor)
        let onConnectionThread = await Task(executorPreference: executor) { transport.isOnConnectionThread }.value
        #expect(onConnectionThread)
        await transport.close()
        POSIX.close(input.write)
        POSIX.close(output.read)
    }

    @Test("with the defaults, a result over its call's limit is still refused (measured on arrival)")
    func minimalTransportStillLimits() async throws {
        let server = try await Self.blobServer()
        let (serverEnd, clientEnd) = InProcessTransport.makePair()
        let serving = Task { try await server.run(on: serverEnd) }
        let client = try await MCPClient.connect(over: Minimal(inner: clientEnd))
        await #expect(throws: MCPClientError.resultTooLarge) {
            try await withHangGuard { try await client.callTool(name: "blob", arguments: ["size": 10_000], maximumResultBytes: 1_000) }
        }
        await client.close()
        await serverEnd.close()
        _ = try? await withHangGuard { try await serving.value }
    }

    @Test("a third-party transport's result limits are registered and its report becomes resultTooLarge")
    func thirdPartyLimits() async throws {
        let server = try await Self.blobServer()
        let (serverEnd, clientEnd) = InProcessTransport.makePair()
        let serving = Task { try await server.run(on: serverEnd) }
        let transport = Reporting(inner: clientEnd)
        let client = try await MCPClient.connect(over: transport)
        let error = await #expect(throws: MCPClientError.self) {
            try await withHangGuard { try await client.callTool(name: "blob", arguments: ["size": 10_000], maximumResultBytes: 1_000) }
        }
        #expect(error == .resultTooLarge)
        #expect(error.map { "\($0)" }?.contains("cut off while it was read") == true)
        #expect(transport.resultLimits?.isEmpty == true)
        await client.close()
        await serverEnd.close()
        _ = try? await withHangGuard { try await serving.value }
    }

    @Test("a third-party transport's end-of-connection reason reaches the error of a pending call")
    func thirdPartyEndReason() async throws {
        let server = try await Self.blobServer()
        let started = OneShot<Void>()
        try await server.register(name: "hang", description: "Never answers", inputSchema: ["type": "object"]) { _, _ in
            started.fulfill(())
            _ = await OneShot<Void>().wait()
            return .text("late")
        }
        let (serverEnd, clientEnd) = InProcessTransport.makePair()
        let serving = Task { try await server.run(on: serverEnd) }
        let client = try await MCPClient.connect(
            over: Reporting(inner: clientEnd), configuration: MCPClient.Configuration(requestTimeout: nil))
        let call = Task { try await client.callTool(name: "hang") }
        // The peer goes away while the call waits.
        _ = await started.wait()
        await serverEnd.close()
        let error = await #expect(throws: MCPClientError.self) { try await withHangGuard { try await call.value } }
        #expect(error == .connectionClosed)
        #expect(error.map { "\($0)" }?.contains("the test peer hung up on purpose") == true)
        serving.cancel()
        _ = try? await withHangGuard { try await serving.value }
        await client.close()
    }
}
