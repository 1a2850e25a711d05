import MCPPlatform
import Testing

/// A handler that reports what the loop tells it, as a stream of events.
private final class RecordingHandler: EventLoopHandler {
    enum Event: Equatable, Sendable {
        case readable([UInt8])
        case endOfInput
        case writable
        case deregistered(onLoop: Bool)
    }

    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let descriptor: Int32
    private let loop: EventLoop
    /// The handler's registration, once made (set by the test before any event can matter).
    let registration = LockedValue<EventLoopRegistration?>(nil)

    init(descriptor: Int32, loop: EventLoop) {
        (events, continuation) = AsyncStream.makeStream()
        self.descriptor = descriptor
        self.loop = loop
    }

    func ready(_ readiness: EventLoop.Readiness) {
        if readiness.readable || readiness.hangUp {
            var bytes = [UInt8](repeating: 0, count: 256)
            let count = (try? bytes.withUnsafeMutableBytes { try POSIX.read(descriptor, into: $0) }) ?? 0
            if count == 0 {
                continuation.yield(.endOfInput)
                registration.withLock { $0 }?.update([])
            } else {
                continuation.yield(.readable(Array(bytes[0..<count])))
            }
        }
        if readiness.writable {
            continuation.yield(.writable)
            registration.withLock { $0 }?.remove(.writable)
        }
    }

    func deregistered() {
        continuation.yield(.deregistered(onLoop: loop.isCurrentThread))
        continuation.finish()
    }
}

@Suite("Event loop")
struct EventLoopTests {
    private func makeLoop() throws -> EventLoop {
        try #require(EventLoop.makeLoop(), "Linux has epoll, Darwin kqueue")
    }

    @Test("A registered pipe's bytes reach its handler on the loop's thread, and end of input too")
    func readsAPipe() async throws {
        let loop = try makeLoop()
        let pipe = try POSIX.makePipe()
        defer { POSIX.close(pipe.read) }
        let handler = RecordingHandler(descriptor: pipe.read, loop: loop)
        let registration = try loop.register(pipe.read, interest: .readable, handler: handler)
        handler.registration.withLock { $0 = registration }
        var events = handler.events.makeAsyncIterator()

        try POSIX.writeAll(pipe.write, Array("hello".utf8))
        #expect(await events.next() == .readable(Array("hello".utf8)))
        POSIX.close(pipe.write)
        #expect(await events.next() == .endOfInput)
        registration.cancel()
        #expect(await events.next() == .deregistered(onLoop: true))
        #expect(await events.next() == nil)
        #expect(loop.registrationCount == 0)
    }

    @Test("A paused registration hears nothing until it asks again, even from a hung-up pipe")
    func pausedRegistrationIsQuiet() async throws {
        let loop = try makeLoop()
        let pipe = try POSIX.makePipe()
        defer { POSIX.close(pipe.read) }
        let handler = RecordingHandler(descriptor: pipe.read, loop: loop)
        let registration = try loop.register(pipe.read, interest: [], handler: handler)
        handler.registration.withLock { $0 = registration }
        var events = handler.events.makeAsyncIterator()

        try POSIX.writeAll(pipe.write, Array("a".utf8))
        POSIX.close(pipe.write)
        // The job wakes the loop, whose wait then returns every ready descriptor; handlers
        // are called before jobs run, so had the pipe been in the set, its event would come
        // before the job's.
        await withCheckedContinuation { continuation in loop.execute { continuation.resume() } }
        registration.cancel()
        #expect(await events.next() == .deregistered(onLoop: true))
    }

    @Test("Write interest reports a pipe with room, once asked")
    func reportsWritable() async throws {
        let loop = try makeLoop()
        let pipe = try POSIX.makePipe()
        defer { POSIX.close(pipe.read) }
        let handler = RecordingHandler(descriptor: pipe.write, loop: loop)
        let registration = try loop.register(pipe.write, interest: [], handler: handler)
        handler.registration.withLock { $0 = registration }
        var events = handler.events.makeAsyncIterator()

        registration.insert(.writable)
        #expect(await events.next() == .writable)
        registration.cancel()
        #expect(await events.next() == .deregistered(onLoop: true))
        POSIX.close(pipe.write)
    }

    @Test("A descriptor that cannot be polled is refused with the kernel's reason")
    func refusesRegularFiles() throws {
        let loop = try makeLoop()
        let file = try POSIX.openNullDevice()
        defer { POSIX.close(file) }
        let handler = RecordingHandler(descriptor: file, loop: loop)
        #expect(throws: Errno.self) { try loop.register(file, interest: .readable, handler: handler) }
        #expect(loop.registrationCount == 0)
    }

    @Test("Jobs run on the loop's thread, in order, and the thread ends when nothing is left")
    func runsJobsInOrder() async throws {
        let loop = try makeLoop()
        let (stream, continuation) = AsyncStream<(Int, Bool)>.makeStream()
        for index in 0..<100 {
            loop.execute { continuation.yield((index, loop.isCurrentThread)) }
        }
        loop.execute { continuation.finish() }
        var seen: [Int] = []
        for await (index, onLoop) in stream {
            #expect(onLoop)
            seen.append(index)
        }
        #expect(seen == Array(0..<100))
    }

    @Test("A loop with a linger keeps its thread for work that comes after it ran out")
    func lingeringThreadIsReused() async throws {
        // A minute: far longer than the test, so the thread cannot have ended in between.
        let loop = try #require(EventLoop.makeLoop(linger: .seconds(60)))
        let first = OneShot<POSIX.ThreadID>()
        loop.execute { first.fulfill(.current) }
        // Bounded waits: hang guards only.
        let firstThread = try #require(await first.wait(within: .seconds(20)))
        #expect(loop.isRunning, "out of work, the thread waits its linger instead of ending")
        let second = OneShot<POSIX.ThreadID>()
        loop.execute { second.fulfill(.current) }
        let secondThread = try #require(await second.wait(within: .seconds(20)))
        #expect(firstThread == secondThread, "the lingering thread took the new work; no second thread was started")
    }

    @Test("Timers run on the loop's thread in deadline order; a cancelled one never runs", .timeLimit(.minutes(1)))
    func timersRunInDeadlineOrder() async throws {
        let loop = try makeLoop()
        let (stream, continuation) = AsyncStream<(String, Bool)>.makeStream()
        // Set from outside the loop's thread, latest first: each new one falls due earlier
        // than all the loop knows of, so it wakes the waiting loop to wait less.
        loop.execute(after: .milliseconds(60)) { continuation.yield(("last", loop.isCurrentThread)) }
        let cancelled = loop.execute(after: .milliseconds(40)) { continuation.yield(("cancelled", loop.isCurrentThread)) }
        loop.execute(after: .milliseconds(20)) { continuation.yield(("second", loop.isCurrentThread)) }
        loop.execute(after: .zero) { continuation.yield(("first", loop.isCurrentThread)) }
        #expect(loop.cancel(cancelled))
        loop.execute(after: .milliseconds(80)) { continuation.finish() }
        var seen: [String] = []
        for await (name, onLoop) in stream {
            #expect(onLoop)
            seen.append(name)
        }
        #expect(seen == ["first", "second", "last"])
        #expect(!loop.cancel(cancelled))
        #expect(loop.timerCount == 0)
    }

    @Test("A timer set from the loop's own thread fires while the loop waits for nothing else", .timeLimit(.minutes(1)))
    func timerSetOnTheLoopFires() async throws {
        let loop = try makeLoop()
        let fired = OneShot<Bool>()
        loop.execute {
            // The loop then waits with nothing but this deadline: no wake-up comes for it.
            loop.execute(after: .milliseconds(5)) { fired.fulfill(loop.isCurrentThread) }
        }
        // Bounded wait: a hang guard only.
        let onLoop = await fired.wait(within: .seconds(20))
        #expect(onLoop == true)
    }

    @Test("A task that prefers the loop runs on its thread")
    func runsTasks() async throws {
        let loop = try makeLoop()
        let onLoop = await Task(executorPreference: loop) { loop.isCurrentThread }.value
        #expect(onLoop)
    }

    @Test("Many pipes share the one loop", arguments: [64])
    func manyPipes(count: Int) async throws {
        let loop = try makeLoop()
        var pipes: [(read: Int32, write: Int32)] = []
        var handlers: [RecordingHandler] = []
        var registrations: [EventLoopRegistration] = []
        for _ in 0..<count {
            let pipe = try POSIX.makePipe()
            let handler = RecordingHandler(descriptor: pipe.read, loop: loop)
            let registration = try loop.register(pipe.read, interest: .readable, handler: handler)
            handler.registration.withLock { $0 = registration }
            pipes.append(pipe)
            handlers.append(handler)
            registrations.append(registration)
        }
        #expect(loop.registrationCount == count)
        for (index, pipe) in pipes.enumerated() { try POSIX.writeAll(pipe.write, [UInt8(index)]) }
        for (index, handler) in handlers.enumerated() {
            var events = handler.events.makeAsyncIterator()
            #expect(await events.next() == .readable([UInt8(index)]))
            registrations[index].cancel()
            #expect(await events.next() == .deregistered(onLoop: true))
        }
        for pipe in pipes {
            POSIX.close(pipe.read)
            POSIX.close(pipe.write)
        }
        #expect(loop.registrationCount == 0)
    }
}
