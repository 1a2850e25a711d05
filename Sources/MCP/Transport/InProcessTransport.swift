public import MCPCore
internal import MCPPlatform

/// One end of a pair of connected in-process transports.
///
/// Messages pass between the two ends as values: nothing is encoded or parsed. This is
/// the transport an iOS app uses to run an ``MCPServer`` and an ``MCPClient`` in the
/// same process, and the one tests use for end-to-end runs.
///
/// ```swift
/// let (clientEnd, serverEnd) = InProcessTransport.makePair()
/// ```
///
/// Each direction is a queue bounded in bytes (the size a message would have as JSON,
/// estimated without encoding it): once ``defaultByteLimit`` (or the limit given to
/// ``makePair(byteLimit:)``) is waiting for the receiver, ``send(_:)`` suspends until the
/// receiver has taken enough, so a peer that never reads cannot make the other side's
/// memory grow. A message larger than the limit still passes when the queue is empty.
///
/// Neither end holds a reference to the other: each holds the queues, so a pair never
/// forms a retain cycle. Closing either end finishes both inbound streams; senders waiting
/// for room then fail with ``TransportError/closed``.
public final class InProcessTransport: Transport {
    /// The default bound of each direction's queue: 8 MiB of (estimated) JSON.
    public static let defaultByteLimit = 8 * 1024 * 1024

    let outbound: BoundedQueue<InboundMessage>
    private let inbound: BoundedQueue<InboundMessage>
    private let stream: AsyncThrowingStream<InboundMessage, any Error>

    private init(inbound: BoundedQueue<InboundMessage>, outbound: BoundedQueue<InboundMessage>) {
        self.inbound = inbound
        self.outbound = outbound
        stream = AsyncThrowingStream(unfolding: { try await inbound.next() })
    }

    /// Creates two connected ends: what one sends, the other receives.
    ///
    /// - Parameter byteLimit: How many bytes of messages (as estimated JSON) may wait in each
    ///   direction before senders suspend; at least 1.
    public static func makePair(byteLimit: Int = InProcessTransport.defaultByteLimit) -> (InProcessTransport, InProcessTransport) {
        let first = makeQueue(byteLimit: byteLimit)
        let second = makeQueue(byteLimit: byteLimit)
        return (InProcessTransport(inbound: first, outbound: second), InProcessTransport(inbound: second, outbound: first))
    }

    /// Hands a message to the other end; suspends while its queue is full.
    ///
    /// - Throws: ``TransportError/closed`` once either end is closed; `CancellationError`
    ///   when the calling task is cancelled while waiting for room.
    public nonisolated(nonsending) func send(_ message: JSONRPCMessage) async throws {
        try await outbound.push(.message(message), bytes: message.estimatedByteCount)
    }

    /// The messages from the other end, in order. Iterate it from one task.
    public func receive() -> AsyncThrowingStream<InboundMessage, any Error> {
        stream
    }

    public func close() async {
        inbound.close()
        outbound.close()
    }

    /// One direction's queue: bounded in bytes only, a message queued only when it fits (so
    /// the bound holds but for one message alone), senders refused with
    /// ``TransportError/closed`` once either end closes; a cancelled receive ends the stream
    /// and leaves the queue as it is.
    private static func makeQueue(byteLimit: Int) -> BoundedQueue<InboundMessage> {
        BoundedQueue(
            byteLimit: max(1, byteLimit), admission: .whenFits, closedError: TransportError.closed, consumerCancellation: .endsReceive)
    }
}

extension InProcessTransport: DirectlyReadableTransport {
    nonisolated(nonsending) func nextInbound() async throws -> InboundMessage? {
        try await inbound.next()
    }
}

extension JSONRPCMessage {
    /// About how many bytes this message takes as compact JSON, without encoding it.
    var estimatedByteCount: Int {
        switch self {
        case .request(let request): 48 + request.method.utf8.count + (request.params?.estimatedByteCount ?? 0)
        case .notification(let notification): 36 + notification.method.utf8.count + (notification.params?.estimatedByteCount ?? 0)
        case .response(let response): 40 + response.result.estimatedByteCount
        case .errorResponse(let response): 64 + response.error.message.utf8.count + (response.error.data?.estimatedByteCount ?? 0)
        case .batch(let elements): elements.reduce(2) { $0 + $1.estimatedByteCount + 1 }
        }
    }
}

extension JSONValue {
    /// About how many bytes this value takes as compact JSON, without encoding it: exact for
    /// ASCII text without escapes, close otherwise.
    var estimatedByteCount: Int {
        switch self {
        case .null: 4
        case .bool(let value): value ? 4 : 5
        case .int: 8
        case .double: 12
        case .string(let text): text.utf8.count + 2
        case .array(let elements):
            // Brackets, the elements, and a comma between each two.
            elements.reduce(1) { $0 + $1.estimatedByteCount + 1 } + (elements.isEmpty ? 1 : 0)
        case .object(let object):
            // Braces, each quoted key and colon with its value, and a comma between each two.
            object.reduce(1) { $0 + $1.key.utf8.count + 3 + $1.value.estimatedByteCount + 1 } + (object.isEmpty ? 1 : 0)
        }
    }
}

extension JSONValue {
    /// ``estimatedByteCount``, but counting stops soon after the total passes `limit`: a
    /// value far larger than the limit costs about as much to measure as one of its size.
    /// The result is the estimate when it is at most `limit`, and some number above `limit`
    /// otherwise.
    func estimatedByteCount(upTo limit: Int) -> Int {
        var total = 0
        _ = Self.count(self, into: &total, limit: limit)
        return total
    }

    /// Adds `value`'s estimate to `total`; returns `false` as soon as `total` passes `limit`.
    private static func count(_ value: JSONValue, into total: inout Int, limit: Int) -> Bool {
        switch value {
        case .null, .bool, .int, .double, .string:
            total += value.estimatedByteCount
        case .array(let elements):
            total += elements.isEmpty ? 2 : 1
            for element in elements {
                total += 1
                guard count(element, into: &total, limit: limit) else { return false }
            }
        case .object(let object):
            total += object.isEmpty ? 2 : 1
            for (key, member) in object {
                total += key.utf8.count + 4
                guard count(member, into: &total, limit: limit) else { return false }
            }
        }
        return total <= limit
    }
}
