// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// The write side an executor streams its output into; the session assembles what it receives
/// into transcript entries and response snapshots.
///
/// An executor sends construct-only ``Event``s with `await channel.send(_:)`: response text,
/// reasoning, tool calls (their arguments a fragment at a time), metadata and usage. Each event
/// addresses a transcript entry by `entryID`; `nil` coalesces consecutive events of the same
/// kind into the trailing entry of that kind, and an explicit id anchors the event to the entry
/// with that id (created by the first event that names it).
///
/// The session owns the channel it hands to ``LanguageModelExecutor/respond(to:model:streamingInto:)``:
/// it reads the channel while the executor runs, in the same task group, and ends it when
/// `respond` returns or throws. That channel is bounded: `send` suspends while 32 events wait to
/// be read, so an executor that streams faster than the session assembles does not grow memory
/// without bound. A `send` after the request ended (or from a cancelled task while the channel
/// is full) returns at once and the event is dropped.
///
/// A channel made with ``init()`` — to test an executor without a session — is a recorder
/// (portable behaviour): it keeps every event, `send` never waits, and iterating it (one reader)
/// yields the events kept so far, then ends. Events are construct-only, so a test reads them
/// through a session rather than by inspecting them.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct LanguageModelExecutorGenerationChannel: AsyncSequence, Sendable {
    /// What the channel carries: events.
    public typealias Element = LanguageModelExecutorGenerationChannel.Event
    /// Reading a channel never fails.
    public typealias Failure = Never

    let buffer: ChannelBuffer

    /// Creates a generation channel instance (a recorder; see the type's discussion).
    public init() {
        buffer = ChannelBuffer(mode: .recorder)
    }

    init(buffer: ChannelBuffer) {
        self.buffer = buffer
    }

    /// Sends `event` to the session, waiting while the channel is full.
    nonisolated(nonsending) public func send(_ event: LanguageModelExecutorGenerationChannel.Event) async {
        await buffer.send(event.core)
    }

    /// An iterator over the events sent to the channel.
    public func makeAsyncIterator() -> LanguageModelExecutorGenerationChannel.AsyncIterator {
        AsyncIterator(buffer: buffer)
    }

    /// Reads the events sent to a channel, in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: ChannelBuffer

        /// The next event; `nil` when the channel has ended.
        public mutating func next() async -> LanguageModelExecutorGenerationChannel.Event? {
            await buffer.next().map(Event.init(core:))
        }
    }
}
#endif
