public import MCPCore
internal import MCPPlatform

/// The server side of MCP's stdio transport: messages in on this process's standard input,
/// out on its standard output, one compact JSON message per line.
///
/// ```swift
/// let transport = try StdioTransport()
/// try await server.run(on: transport)   // returns at end of standard input
/// ```
///
/// **Standard output is protected.** The MCP stdio rule is that a server writes nothing but
/// protocol messages to standard output. So that a stray `print` (from the app or from any
/// library) cannot corrupt the stream, the first `StdioTransport` in a process moves the
/// real standard output to a private descriptor (`dup(1)`) and points descriptor 1 at
/// standard error (`dup2(2, 1)`): from then on `print`, `printf` and
/// `FileHandle.standardOutput` write to stderr, and only the transport writes to the
/// client. This is what the Python SDK does too. Pass `protectsStandardOutput: false` to
/// keep descriptor 1 as it is and write the protocol to it directly. The redirection lasts
/// for the life of the process; later transports write to the same protected output.
///
/// **End of input ends the connection.** When the client closes the server's standard input,
/// the stream of ``receive()`` finishes (so a server's run loop ends and the process can exit
/// at once). ``close()`` writes whatever responses are still buffered before returning.
///
/// Standard input is left open and in blocking mode; it is never closed by the transport.
/// After ``close()`` nothing more is read from it.
///
/// The reading thread also runs the server's work (see ``FileDescriptorTransport``), so a
/// request read from standard input is handled and answered on it without a thread switch.
public final class StdioTransport: Transport {
    let connection: FileDescriptorTransport

    /// Starts reading standard input and prepares standard output for protocol messages.
    ///
    /// - Parameters:
    ///   - protectsStandardOutput: Whether to redirect descriptor 1 to standard error and
    ///     write the protocol to a private copy of the original standard output (the default).
    ///   - maximumFrameLength: The largest message accepted, in bytes (default 16 MiB).
    /// - Throws: ``TransportError/ioFailure(_:)`` when the descriptors cannot be duplicated
    ///   or a thread cannot be started; ``TransportError/invalidConfiguration(_:)`` when
    ///   `maximumFrameLength` is not positive.
    public init(
        protectsStandardOutput: Bool = true,
        maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength
    ) throws {
        // Checked before standard output is touched, so a bad limit changes nothing.
        guard maximumFrameLength > 0 else {
            throw TransportError.invalidConfiguration("maximumFrameLength must be positive, not \(maximumFrameLength)")
        }
        let output: Int32
        if protectsStandardOutput {
            do {
                output = try POSIX.protectStandardOutput()
            } catch {
                throw TransportError.ioFailure("cannot protect standard output: \(error)")
            }
        } else {
            output = POSIX.standardOutput
        }
        connection = try FileDescriptorTransport(
            readingFrom: POSIX.standardInput,
            writingTo: output,
            closesInput: false,
            closesOutput: protectsStandardOutput,
            maximumFrameLength: maximumFrameLength)
    }

    /// Writes one message to standard output (queued for the writing thread).
    ///
    /// - Throws: ``TransportError/closed`` after ``close()`` or when the client has gone;
    ///   ``TransportError/frameTooLarge(_:)``, ``TransportError/encodingFailure(_:)`` or
    ///   `CancellationError` as ``FileDescriptorTransport/send(_:)`` describes.
    public nonisolated(nonsending) func send(_ message: JSONRPCMessage) async throws {
        try await connection.send(message)
    }

    /// The messages read from standard input; finishes at end of input.
    public func receive() -> AsyncThrowingStream<InboundMessage, any Error> {
        connection.receive()
    }

    /// Stops accepting messages, finishes the inbound stream, and returns when every buffered
    /// message has been written to the client (or the client has gone).
    public func close() async {
        await connection.close()
    }
}
