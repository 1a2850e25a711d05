internal import MCPPlatform

/// How the server's request runners write a connection's answers together, on the event loop.
///
/// A runner starts a connection's requests in place one after another (``RequestRunners``).
/// While it does, an answer made while others are still to come is left queued: the runner
/// writes everything queued once it has no request left to start (or before it yields), one
/// `write` and one wake-up of the peer for the whole burst, with no wake-up of the loop's
/// thread. Without it, each such answer asked the loop to write after its current jobs, which
/// woke a sleeping loop once per burst.
///
/// An answer is never left waiting on a runner that is busy: once a request is queued while
/// others are in flight, and until the last runner ends, a timer of the loop writes what is
/// queued every ``LoopConnection/heldAnswerDelay`` (a millisecond), so an answer queued just
/// before a tool that computes for seconds without suspending goes out within about that long.
/// With one request in flight at a time no answer is held and no timer is set.
///
/// Exists for connections on the event loop only; elsewhere answers are written as before.
struct AnswerBatch: Sendable {
    let connection: LoopConnection

    /// Runs `body` (a runner starting requests in place, one after another) with the
    /// connection's answers left queued for the runner to write.
    func holdingAnswers<Result>(_ body: () -> Result) -> Result {
        let previous = POSIX.batchMarker
        POSIX.batchMarker = connection.outboundIdentity
        defer { POSIX.batchMarker = previous }
        return body()
    }

    /// Requests were queued for the runners, and started `startingRunners` more runners: while
    /// others are in flight too, until the last runner ends, the loop writes what is queued at
    /// least every ``LoopConnection/heldAnswerDelay``.
    func requestsQueued(startingRunners: Int) {
        connection.requestsQueued(startingRunners: startingRunners)
    }

    /// A runner pauses (it yields to other work): writes what is queued.
    func runnerPaused() {
        connection.writeHeldAnswers()
    }

    /// A runner ends (no request left to start): writes what is queued.
    func runnerEnded() {
        connection.runnerEnded()
    }
}

/// A transport whose answers the server's request runners may write together
/// (``AnswerBatch``): the descriptor transports on the event loop.
protocol AnswerBatchingTransport: Transport {
    /// The batching of the connection's answers; `nil` where it has no event loop.
    var answerBatch: AnswerBatch? { get }
}

extension FileDescriptorTransport: AnswerBatchingTransport {
    var answerBatch: AnswerBatch? {
        guard case .loop(let connection) = engine else { return nil }
        return AnswerBatch(connection: connection)
    }
}

extension StdioTransport: AnswerBatchingTransport {
    var answerBatch: AnswerBatch? { connection.answerBatch }
}

#if MCP_CAN_SPAWN
extension ProcessTransport: AnswerBatchingTransport {
    var answerBatch: AnswerBatch? { connection.answerBatch }
}
#endif
