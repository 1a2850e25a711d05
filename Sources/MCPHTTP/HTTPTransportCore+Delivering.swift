internal import Foundation
internal import HTTPClientCore
internal import MCP
internal import MCPCore
internal import MCPPlatform

// Delivering what was read to the inbound queue.
extension HTTPTransportCore {
    /// Hands a message that took `bytes` bytes on the wire to ``receive()``, waiting for room
    /// in the inbound queue (which `watch` does not count as the server's silence).
    ///
    /// - Throws: `CancellationError` when the reading task is cancelled while it waits.
    func deliver(_ inbound: InboundMessage, bytes: Int, watch: IdleWatch? = nil) async throws {
        if case .message(let message) = inbound {
            locked.withLock { shared in shared.state.observe(message) }
        }
        try await inboundQueue.push(inbound, bytes: bytes, whileWaiting: watch)
    }

    func deliver(_ message: JSONRPCMessage, bytes: Int, watch: IdleWatch? = nil) async throws {
        try await deliver(.message(message), bytes: bytes, watch: watch)
    }

    /// The messages in a body or an event: one, or a batch's elements; what is not a message
    /// comes as ``InboundMessage/invalid(_:)``.
    static func messages(in bytes: [UInt8]) -> [InboundMessage] {
        let message: JSONRPCMessage
        do throws(InvalidMessage) {
            message = try JSONRPCMessage(parsing: bytes)
        } catch {
            return [.invalid(error)]
        }
        guard case .batch(let elements) = message else { return [.message(message)] }
        return elements.map { element in
            do throws(InvalidMessage) {
                return .message(try JSONRPCMessage(element))
            } catch {
                return .invalid(error)
            }
        }
    }

    /// Whether a message is the answer to request `id` (an error with a `null` id counts:
    /// the server could not read the id of the one request it was sent).
    static func answers(_ inbound: InboundMessage, _ id: RequestID) -> Bool {
        switch inbound {
        case .message(.response(let response)): response.id == id
        case .message(.errorResponse(let response)): response.id == id || response.id == nil
        case .invalid(let invalid): invalid.apparentID == id
        default: false
        }
    }

    /// The answer with its id set to `id` (an error response with a `null` id).
    static func identified(_ inbound: InboundMessage, as id: RequestID) -> InboundMessage {
        if case .message(.errorResponse(var response)) = inbound, response.id == nil {
            response.id = id
            return .message(.errorResponse(response))
        }
        return inbound
    }
}
