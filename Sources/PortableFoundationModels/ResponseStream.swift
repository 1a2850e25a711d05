// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

extension LanguageModelSession {
    /// An async sequence of snapshots of a response as it is generated.
    ///
    /// Each snapshot holds the whole response so far. A backend that reports its answer as it
    /// grows (``LanguageModelBackend/respond(to:partialAnswer:)``) gives a snapshot per report
    /// that decodes as `Content.PartiallyGenerated`, then one of the complete response; any other
    /// backend gives the complete response only. Tool calls and their outputs are not snapshots:
    /// the stream shows the answer that follows them.
    ///
    /// The generation starts when the stream is first iterated or collected, runs once however
    /// many iterators read it, and stops (its task cancelled, the backend's request with it)
    /// when every reader is gone before it ends. Snapshots a slow reader has not taken are
    /// replaced by newer ones, so memory stays bounded; the complete response is never dropped.
    public struct ResponseStream<Content: Generable>: Sendable {
        public struct Snapshot {
            public var content: Content.PartiallyGenerated
            public var rawContent: GeneratedContent
            /// The response's transcript entries so far (public from 27 as `transcriptEntries`).
            var entries: ArraySlice<Transcript.Entry>
            /// The response's usage so far (public from 27 as `usage`).
            var usageCore: UsageCore
        }

        let generation: StreamedGeneration<Content>

        init(_ produce: @escaping StreamedGeneration<Content>.Produce) {
            generation = StreamedGeneration(produce)
        }

        /// Waits for the complete response (reading the stream to its end) and returns it.
        nonisolated(nonsending) public func collect() async throws -> sending LanguageModelSession.Response<Content> {
            for try await _ in generation.subscribe() {}
            try Task.checkCancellation()
            let end = try generation.outcome()
            return LanguageModelSession.Response(
                content: try Content(end.raw), rawContent: end.raw, transcriptEntries: end.entries, usageCore: end.usage)
        }
    }
}

extension LanguageModelSession.ResponseStream: AsyncSequence {
    public typealias Element = LanguageModelSession.ResponseStream<Content>.Snapshot
    public typealias Failure = any Swift.Error

    public struct AsyncIterator: AsyncIteratorProtocol {
        var contents: AsyncThrowingStream<StreamSnapshotCore, any Swift.Error>.AsyncIterator

        public mutating func next() async throws -> LanguageModelSession.ResponseStream<Content>.Snapshot? {
            while let snapshot = try await contents.next() {
                let raw = snapshot.raw
                do {
                    return Snapshot(
                        content: try Content.PartiallyGenerated(raw), rawContent: raw, entries: snapshot.entries, usageCore: snapshot.usage)
                } catch  where !raw.isComplete {
                    // A prefix this type cannot represent yet (a required property still
                    // missing): the next, longer one may.
                    continue
                }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> LanguageModelSession.ResponseStream<Content>.AsyncIterator {
        AsyncIterator(contents: generation.subscribe().makeAsyncIterator())
    }
}

/// A snapshot of a response as a stream carries it: the raw content so far, the response's
/// transcript entries so far, and its usage so far.
struct StreamSnapshotCore: Sendable {
    var raw: GeneratedContent
    var entries: ArraySlice<Transcript.Entry>
    var usage: UsageCore
}

/// One streamed generation, shared by the copies of its `ResponseStream` and their iterators.
///
/// A small state machine under a lock: not started, running (a task, the latest snapshot, the
/// readers), ended (the outcome). Readers are `AsyncThrowingStream`s that keep only the newest
/// snapshot; the last reader leaving before the end cancels the task.
final class StreamedGeneration<Content: Generable>: Sendable {
    typealias Produce =
        @Sendable (_ partial: @escaping @Sendable (StreamSnapshotCore) -> Void) async throws
        -> LanguageModelSession.Response<Content>
    typealias Reader = AsyncThrowingStream<StreamSnapshotCore, any Error>.Continuation
    /// How a generation ended: the complete answer with its transcript entries and usage, or the error.
    typealias Outcome = Result<StreamSnapshotCore, any Error>

    private struct State {
        var task: Task<Void, Never>?
        var latest: StreamSnapshotCore?
        var readers: [Int: Reader] = [:]
        var nextReader = 0
        var ended: Outcome?
    }

    private let produce: Produce
    private let state = LockedValue(State())

    init(_ produce: @escaping Produce) {
        self.produce = produce
    }

    /// A new reader: the newest snapshot so far (if any), the ones after it, and the end. The
    /// first reader starts the generation.
    func subscribe() -> AsyncThrowingStream<StreamSnapshotCore, any Error> {
        let (stream, reader) = AsyncThrowingStream.makeStream(of: StreamSnapshotCore.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { state in
            if let ended = state.ended {
                Self.end(reader, with: ended)
                return
            }
            let id = state.nextReader
            state.nextReader += 1
            state.readers[id] = reader
            if let latest = state.latest { reader.yield(latest) }
            reader.onTermination = { [weak self] termination in
                if case .cancelled = termination { self?.leave(id) }
            }
            // Started with the lock held, so two first readers cannot start two generations;
            // the task takes the lock only after this returns.
            if state.task == nil { state.task = Task { await self.generate() } }
        }
        return stream
    }

    /// The generation's result, once it ended.
    func outcome() throws -> StreamSnapshotCore {
        guard let ended = state.withLock({ $0.ended }) else { throw CancellationError() }
        return try ended.get()
    }

    private func generate() async {
        let result: Outcome
        do {
            let response = try await produce { [weak self] partial in self?.publish(partial) }
            result = .success(StreamSnapshotCore(raw: response.rawContent, entries: response.transcriptEntries, usage: response.usageCore))
        } catch {
            result = .failure(error)
        }
        // Yielded with the lock held, so no snapshot can follow the end.
        state.withLock { state in
            state.ended = result
            state.latest = nil
            for reader in state.readers.values { Self.end(reader, with: result) }
            state.readers = [:]
        }
    }

    /// Ends `reader` with the generation's outcome: the complete answer, or the error.
    private static func end(_ reader: Reader, with outcome: Outcome) {
        switch outcome {
        case .success(let end):
            reader.yield(end)
            reader.finish()
        case .failure(let error):
            reader.finish(throwing: error)
        }
    }

    private func publish(_ partial: StreamSnapshotCore) {
        state.withLock { state in
            guard state.ended == nil else { return }
            state.latest = partial
            for reader in state.readers.values { reader.yield(partial) }
        }
    }

    /// A reader stopped reading before the end; the last one to go stops the generation.
    private func leave(_ id: Int) {
        let stop: Task<Void, Never>? = state.withLock { state in
            state.readers[id] = nil
            return state.readers.isEmpty && state.ended == nil ? state.task : nil
        }
        stop?.cancel()
    }
}
#endif
