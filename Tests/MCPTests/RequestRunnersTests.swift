import MCPPlatform
import Testing

@testable import MCP

/// The runners that start a connection's requests: their queue driven synchronously, and the
/// runners themselves with requests that suspend.
@Suite("Request runners")
struct RequestRunnersTests {
    @Test(arguments: [1, 2, 4])
    func aBurstStartsAtMostWidthRunners(width: Int) {
        var state = RequestQueueState<Int>(width: width)
        let started = (0..<10).filter { state.submit($0) }.count
        #expect(started == width)
        #expect(state.runners == width)
        #expect(state.waitingCount == 10)
    }

    @Test("Queued together, requests start as many runners as queued one by one", arguments: [(1, 0), (1, 3), (2, 0), (2, 1), (4, 3)])
    func queuedTogether(width: Int, alreadyRunning: Int) {
        var together = RequestQueueState<Int>(width: width)
        var oneByOne = RequestQueueState<Int>(width: width)
        for value in 0..<alreadyRunning {
            _ = together.submit(value)
            _ = oneByOne.submit(value)
        }
        let started = together.submit(contentsOf: 10..<13)
        let startedOneByOne = (10..<13).filter { oneByOne.submit($0) }.count
        #expect(started == startedOneByOne)
        #expect(started == min(3, width - min(alreadyRunning, width)), "one runner a request, up to the width")
        #expect(together.runners == oneByOne.runners)
        #expect(together.submit(contentsOf: []) == 0, "nothing queued starts nothing")
        let drained = (0..<(alreadyRunning + 3)).map { _ in together.next() }
        #expect(drained == Array(0..<alreadyRunning) + [10, 11, 12], "in order, after what was queued before")
    }

    @Test func runnersTakeRequestsInOrderAndEndWhenNoneWait() {
        var state = RequestQueueState<Int>(width: 2)
        let started = [1, 2, 3].map { state.submit($0) }
        #expect(started == [true, true, false], "the third request waits for one of two runners")
        let taken = (0..<4).map { _ in state.next() }
        #expect(taken == [1, 2, 3, nil])
        #expect(state.runners == 1, "the runner that found nothing ended")
        let last = state.next()
        #expect(last == nil)
        #expect(state.runners == 0)
        let restarted = state.submit(4)
        #expect(restarted, "with no runner left, a new request starts one")
        let fourth = state.next()
        #expect(fourth == 4)
    }

    @Test func aLongQueueIsCompactedAsItDrains() {
        var state = RequestQueueState<Int>(width: 1)
        for value in 0..<5_000 { _ = state.submit(value) }
        let first = (0..<4_000).map { _ in state.next() }
        #expect(first == Array(0..<4_000))
        #expect(state.waitingCount == 1_000)
        for value in 5_000..<5_010 { _ = state.submit(value) }
        let rest = (0..<1_011).map { _ in state.next() }
        #expect(rest == Array(4_000..<5_010) + [nil])
        #expect(state.runners == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func requestsStartInPlaceOnTheirRunnerAndAllRunAcrossItsYields() async throws {
        guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else { return }
        // More than a runner starts between two yields, one runner: every request runs, in
        // order, and each runs on the thread of the runner that started it.
        let count = 3 * RequestRunners<Int>.requestsBetweenYields + 1
        let log = LockedValue<(order: [Int], elsewhere: Int)>(([], 0))
        let allRan = OneShot<Void>()
        let runners = RequestRunners<Int>(width: 1) { request in
            guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else { return }
            let runner = POSIX.ThreadID.current
            _ = Task.immediate {
                let inPlace = POSIX.ThreadID.current == runner
                let done = log.withLock { log in
                    log.order.append(request)
                    if !inPlace { log.elsewhere += 1 }
                    return log.order.count
                }
                if done == count { allRan.fulfill(()) }
            }
        }
        for request in 0..<count { runners.submit(request) }
        _ = await allRan.wait()
        let (order, elsewhere) = log.withLock { $0 }
        #expect(order == Array(0..<count))
        #expect(elsewhere == 0, "a request that does not suspend runs on its runner's thread")
    }

    @Test(.timeLimit(.minutes(1)), arguments: [1, 2])
    func aRequestThatSuspendsFreesItsRunner(width: Int) async throws {
        guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else { return }
        // The first request waits until the last one has run: with one runner, that works only
        // if a request that suspends hands the runner on.
        let count = 20
        let lastRan = OneShot<Void>()
        let finished = LockedValue<[Int]>([])
        let allFinished = OneShot<Void>()
        let runners = RequestRunners<Int>(width: width) { request in
            guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else { return }
            _ = Task.immediate {
                if request == 0 { _ = await lastRan.wait() }
                let done = finished.withLock { finished in
                    finished.append(request)
                    return finished.count
                }
                if request == count - 1 { lastRan.fulfill(()) }
                if done == count { allFinished.fulfill(()) }
            }
        }
        for request in 0..<count { runners.submit(request) }
        _ = await allFinished.wait()
        let order = finished.withLock { $0 }
        #expect(order.last == 0, "the suspended request finished last")
        #expect(order.sorted() == Array(0..<count))
        if width == 1 {
            #expect(Array(order.dropLast()) == Array(1..<count), "one runner takes the others in order")
        }
    }
}
