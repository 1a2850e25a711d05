/// One request and its response over one connection, as a synchronous state machine with no
/// I/O: connecting (address after address), sending, reading, and the read-ahead window.
///
/// ``SocketExchanger``'s event-loop shell does the calls the machine asks for and tells it what
/// they did; the machine returns ``Action``s and says, in ``awaiting``, which readiness the
/// socket must be watched for. Reading pauses (``awaiting`` becomes ``Wait/nothing``) once more
/// than ``window`` bytes of the body wait for the reader, and resumes when the reader has taken
/// them down to half the window, so TCP's flow control holds a flooding server back.
struct HTTPExchangeMachine {
    /// What the shell does next.
    enum Action: Equatable {
        /// Start connecting to the address at this index of the resolved list.
        case connect(addressIndex: Int)
        /// The response head arrived.
        case head(status: Int, headers: [String: String])
        /// Bytes of the body, for the reader.
        case body([UInt8])
        /// The response is complete; `reusable`: the connection may go back to the pool.
        case complete(reusable: Bool)
        /// The exchange failed. `retry`: a reused connection failed before any byte of the
        /// response came (the server closed it while it was idle), so a new connection may try
        /// once more.
        case fail(message: String, retry: Bool)
    }

    /// Which readiness of the socket the machine waits for.
    enum Wait: Equatable {
        case writable
        case readable
        /// None: the machine waits for addresses, for its reader, or is over.
        case nothing
    }

    private enum Phase: Equatable {
        /// Waiting for the host's addresses.
        case resolving
        /// Connecting to the address at `index` of `count`; `failures` says why earlier ones failed.
        case connecting(index: Int, count: Int, failures: [String])
        case sending(offset: Int)
        case receiving
        case over
    }

    /// The most body bytes read ahead of the reader before reading pauses.
    let window: Int
    /// The connection was kept alive from an earlier exchange.
    let reused: Bool
    private let request: [UInt8]
    private let authority: String
    private var phase: Phase
    private var parser: HTTP1ResponseParser
    /// Bytes of the response received so far.
    private var received = 0
    /// Body bytes delivered and not taken by the reader yet.
    private(set) var waiting = 0
    /// Reading is paused until the reader takes enough.
    private(set) var paused = false

    /// A machine for `request` (its serialized bytes) to `authority` (named in failures); over a
    /// kept-alive connection (`reused`) it starts by sending, else it waits for addresses.
    init(request: [UInt8], method: String, authority: String, window: Int, reused: Bool) {
        self.request = request
        self.authority = authority
        self.window = max(1, window)
        self.reused = reused
        parser = HTTP1ResponseParser(requestMethod: method)
        phase = reused ? .sending(offset: 0) : .resolving
    }

    /// The readiness to watch the socket for now.
    var awaiting: Wait {
        switch phase {
        case .connecting, .sending: .writable
        case .receiving: paused ? .nothing : .readable
        case .resolving, .over: .nothing
        }
    }

    /// Whether a connection is being made (its socket's writability says it is done).
    var isConnecting: Bool {
        if case .connecting = phase { return true }
        return false
    }

    /// Whether the exchange has completed or failed.
    var isOver: Bool { phase == .over }

    /// The bytes of the request still to send.
    var unsent: ArraySlice<UInt8> {
        guard case .sending(let offset) = phase else { return [] }
        return request[offset...]
    }

    // MARK: Connecting

    /// The host resolved to `count` addresses: connect to the first.
    mutating func resolved(addressCount count: Int) -> Action {
        guard phase == .resolving else { return .fail(message: "internal: addresses after the start", retry: false) }
        guard count > 0 else { return fail("cannot connect to \(authority): the name has no address") }
        phase = .connecting(index: 0, count: count, failures: [])
        return .connect(addressIndex: 0)
    }

    /// The host's name did not resolve.
    mutating func resolutionFailed(_ reason: String) -> Action {
        fail("cannot connect to \(authority): \(reason)")
    }

    /// The connection to the current address is made: send.
    mutating func connected() {
        guard case .connecting = phase else { return }
        phase = .sending(offset: 0)
    }

    /// Connecting to the current address failed: the next one, or the failure of them all.
    mutating func connectFailed(_ reason: String) -> Action {
        guard case .connecting(let index, let count, var failures) = phase else { return fail(reason) }
        failures.append(reason)
        guard index + 1 < count else { return fail("cannot connect to \(authority): \(failures.joined(separator: "; "))") }
        phase = .connecting(index: index + 1, count: count, failures: failures)
        return .connect(addressIndex: index + 1)
    }

    // MARK: Sending

    /// `count` bytes of ``unsent`` went; once all have, the response is read.
    mutating func sent(_ count: Int) {
        guard case .sending(let offset) = phase else { return }
        phase = offset + count >= request.count ? .receiving : .sending(offset: offset + count)
    }

    /// Sending failed.
    mutating func sendFailed(_ reason: String) -> Action {
        fail("cannot send the request to \(authority): \(reason)", retry: reused)
    }

    // MARK: Receiving

    /// Bytes of the response arrived (an empty collection: the server closed the connection).
    mutating func received(_ bytes: some Collection<UInt8>) -> [Action] {
        guard phase == .receiving else { return [] }
        received += bytes.count
        let events: [HTTP1ResponseParser.Event]
        do throws(HTTP1ResponseParser.Malformed) {
            events = bytes.isEmpty ? try parser.finish() : try parser.feed(bytes)
        } catch {
            return [fail("\(authority) sent a broken HTTP response: \(error)", retry: reused && received == 0)]
        }
        var actions: [Action] = []
        for event in events {
            switch event {
            case .head(let status, let headers):
                actions.append(.head(status: status, headers: headers))
            case .body(let chunk):
                guard !chunk.isEmpty else { continue }
                waiting += chunk.count
                actions.append(.body(chunk))
            case .end(let reusable):
                phase = .over
                actions.append(.complete(reusable: reusable))
                return actions
            }
        }
        if waiting > window { paused = true }
        return actions
    }

    /// Reading failed.
    mutating func receiveFailed(_ reason: String) -> Action {
        fail("the connection to \(authority) failed: \(reason)", retry: reused && received == 0)
    }

    /// The reader took `count` bytes; reading resumes once no more than half the window waits.
    mutating func taken(_ count: Int) {
        waiting -= count
        if paused && waiting <= window / 2 { paused = false }
    }

    /// The exchange was cancelled: nothing more is awaited.
    mutating func cancel() {
        phase = .over
    }

    private mutating func fail(_ message: String, retry: Bool = false) -> Action {
        phase = .over
        return .fail(message: message, retry: retry)
    }
}
