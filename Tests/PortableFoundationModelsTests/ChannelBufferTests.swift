#if !canImport(FoundationModels)
// The channel's bounded buffer is internal; these tests reach it with @testable, the way only a
// test can. Everything else in this target uses the public API.
@testable import PortableFoundationModels
import Testing

/// The bounded queue between an executor and the session: backpressure, order, and ending.
@Suite("27: the generation channel's bounded buffer")
struct ChannelBufferTests {
    static let capacity = 4

    static func event(_ index: Int) -> ChannelEvent {
        ChannelEvent(entryID: "\(index)", payload: .response(.text(.append("\(index)", segmentID: nil, tokenCount: 1))))
    }

    /// The entry ids of the events read until the channel ends.
    static func readAll(_ buffer: ChannelBuffer) async -> [String] {
        var ids: [String] = []
        while let event = await buffer.next() { ids.append(event.entryID ?? "") }
        return ids
    }

    @Test("A full channel holds its capacity: the next send waits, and a cancelled waiting send drops its event")
    func bounded() async throws {
        let buffer = ChannelBuffer(mode: .bounded(Self.capacity))
        for index in 0..<Self.capacity { await buffer.send(Self.event(index)) }
        #expect(buffer.count == Self.capacity)
        let blocked = Task { await buffer.send(Self.event(99)) }
        blocked.cancel()
        await blocked.value
        #expect(buffer.count == Self.capacity, "the waiting event was dropped, not queued beyond the capacity")
        buffer.finish()
        #expect(await Self.readAll(buffer) == ["0", "1", "2", "3"])
    }

    @Test("A waiting sender goes on when the reader takes an event, and its event keeps its place")
    func backpressure() async throws {
        let buffer = ChannelBuffer(mode: .bounded(Self.capacity))
        let sender = Task {
            for index in 0..<(Self.capacity * 3) { await buffer.send(Self.event(index)) }
            buffer.finish()
        }
        var read: [String] = []
        while let event = await buffer.next() {
            read.append(event.entryID ?? "")
            #expect(buffer.count <= Self.capacity)
        }
        await sender.value
        #expect(read == (0..<(Self.capacity * 3)).map(String.init))
    }

    @Test("A reader waiting for an event gets the next one sent")
    func waitingReader() async throws {
        let buffer = ChannelBuffer(mode: .bounded(Self.capacity))
        let reader = Task { await buffer.next()?.entryID }
        await buffer.send(Self.event(7))
        #expect(await reader.value == "7")
    }

    @Test("finish lets the reader drain what is queued; close drops it and frees waiting senders; later sends are dropped")
    func ending() async throws {
        let finished = ChannelBuffer(mode: .bounded(Self.capacity))
        await finished.send(Self.event(1))
        finished.finish()
        await finished.send(Self.event(2))
        #expect(await Self.readAll(finished) == ["1"])

        let closed = ChannelBuffer(mode: .bounded(1))
        await closed.send(Self.event(1))
        let waiting = Task { await closed.send(Self.event(2)) }
        closed.close()
        await waiting.value
        #expect(await closed.next() == nil)
        #expect(closed.count == 0)
    }

    @Test("A recorder keeps everything and its reader ends when it has read it all")
    func recorder() async throws {
        let buffer = ChannelBuffer(mode: .recorder)
        for index in 0..<100 { await buffer.send(Self.event(index)) }
        #expect(buffer.count == 100)
        #expect(await Self.readAll(buffer).count == 100)
    }
}
#endif
