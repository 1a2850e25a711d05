import Testing

@testable import HTTPClientCore

/// The event loop's exchange, without I/O: what it asks for after each thing that happened.
@Suite("HTTP exchange machine")
struct HTTPExchangeMachineTests {
    private let request = Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8)

    private func machine(window: Int = 8, reused: Bool = false) -> HTTPExchangeMachine {
        HTTPExchangeMachine(request: request, method: "GET", authority: "h:80", window: window, reused: reused)
    }

    /// A machine connected and done sending: it reads the response.
    private func receiving(window: Int = 8, reused: Bool = false) -> HTTPExchangeMachine {
        var machine = machine(window: window, reused: reused)
        if !reused {
            _ = machine.resolved(addressCount: 1)
            machine.connected()
        }
        machine.sent(request.count)
        return machine
    }

    @Test("A new connection tries each address in turn; when all fail the failure names every reason")
    func addressesInTurn() {
        var machine = machine()
        #expect(machine.awaiting == .nothing)
        #expect(machine.resolved(addressCount: 2) == .connect(addressIndex: 0))
        #expect(machine.isConnecting)
        #expect(machine.awaiting == .writable)
        #expect(machine.connectFailed("connect: refused") == .connect(addressIndex: 1))
        #expect(
            machine.connectFailed("connect: unreachable")
                == .fail(message: "cannot connect to h:80: connect: refused; connect: unreachable", retry: false))
        #expect(machine.isOver)
        #expect(machine.awaiting == .nothing)
    }

    @Test("A name that does not resolve fails at once, naming the host")
    func resolutionFailure() {
        var machine = machine()
        #expect(
            machine.resolutionFailed("the name does not resolve: unknown")
                == .fail(message: "cannot connect to h:80: the name does not resolve: unknown", retry: false))
        #expect(machine.isOver)
    }

    @Test("A request sent in pieces: writable until the last byte went, then readable")
    func partialWrites() {
        var machine = machine()
        _ = machine.resolved(addressCount: 1)
        machine.connected()
        #expect(!machine.isConnecting)
        #expect(machine.unsent.count == request.count)
        machine.sent(5)
        #expect(Array(machine.unsent) == Array(request[5...]))
        #expect(machine.awaiting == .writable)
        machine.sent(request.count - 5)
        #expect(machine.unsent.isEmpty)
        #expect(machine.awaiting == .readable)
    }

    @Test("A kept-alive connection starts by sending")
    func reusedStartsSending() {
        let machine = machine(reused: true)
        #expect(machine.awaiting == .writable)
        #expect(machine.unsent.count == request.count)
    }

    @Test("Head and body split anywhere: the head, the body's bytes, then the end with the connection reusable")
    func response() {
        var machine = receiving(window: 1 << 10)
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8)
        var actions: [HTTPExchangeMachine.Action] = []
        actions += machine.received(bytes[..<20])
        actions += machine.received(bytes[20..<40])
        actions += machine.received(bytes[40...])
        #expect(actions.first == .head(status: 200, headers: ["content-length": "5"]))
        #expect(actions.last == .complete(reusable: true))
        let body = actions.flatMap { action -> [UInt8] in
            if case .body(let bytes) = action { return bytes }
            return []
        }
        #expect(body == Array("hello".utf8))
        #expect(machine.isOver)
        #expect(machine.awaiting == .nothing)
    }

    @Test("More than the window unread pauses reading; the reader taking it down to half resumes it")
    func window() {
        var machine = receiving(window: 8)
        _ = machine.received(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".utf8))
        #expect(machine.received(Array(repeating: UInt8(ascii: "x"), count: 8)) == [.body(Array(repeating: UInt8(ascii: "x"), count: 8))])
        #expect(machine.awaiting == .readable)
        _ = machine.received([UInt8(ascii: "y")])
        #expect(machine.waiting == 9)
        #expect(machine.paused)
        #expect(machine.awaiting == .nothing)
        machine.taken(4)
        #expect(machine.awaiting == .nothing)
        machine.taken(1)
        #expect(machine.waiting == 4)
        #expect(machine.awaiting == .readable)
    }

    @Test(
        "A kept-alive connection that fails before any byte of its response may be retried; a new one, or one that answered, may not",
        arguments: [(true, 0, true), (false, 0, false), (true, 1, false)])
    func retry(reused: Bool, bytesBefore: Int, retry: Bool) {
        var machine = receiving(reused: reused)
        if bytesBefore > 0 { _ = machine.received(Array("HTTP/1.1".utf8.prefix(bytesBefore))) }
        let ended = machine.received([UInt8]())
        #expect(ended.count == 1)
        guard case .fail(let message, let retried) = ended.first else {
            Issue.record("the end of the connection before the head is not a failure: \(ended)")
            return
        }
        #expect(message.hasPrefix("h:80 sent a broken HTTP response: "))
        #expect(retried == retry)
        var failing = receiving(reused: reused)
        if bytesBefore > 0 { _ = failing.received(Array("HTTP/1.1".utf8.prefix(bytesBefore))) }
        #expect(failing.receiveFailed("recv: reset") == .fail(message: "the connection to h:80 failed: recv: reset", retry: retry))
    }

    @Test("Sending over a kept-alive connection that fails may be retried")
    func sendFailure() {
        var reused = machine(reused: true)
        #expect(reused.sendFailed("send: broken pipe") == .fail(message: "cannot send the request to h:80: send: broken pipe", retry: true))
        var fresh = receiving()
        #expect(fresh.sendFailed("send: broken pipe") == .fail(message: "cannot send the request to h:80: send: broken pipe", retry: false))
    }

    @Test("A cancelled exchange awaits nothing")
    func cancel() {
        var machine = receiving()
        machine.cancel()
        #expect(machine.isOver)
        #expect(machine.awaiting == .nothing)
        #expect(machine.received(Array("HTTP/1.1 200 OK\r\n".utf8)).isEmpty)
    }
}
