internal import MCPPlatform

/// Looks host names up on one thread of its own, so that `getaddrinfo` (which blocks on files
/// and DNS) runs neither on the event loop nor on Swift concurrency's few threads.
///
/// The thread starts with the first lookup and ends as soon as none is queued; the next lookup
/// starts it again. Lookups run one after the other: names are few (a transport talks to one
/// server), and address literals never come here (``POSIX/addressLiterals(host:port:)``).
final class NameResolver: Sendable {
    typealias Completion = @Sendable (Result<[SocketAddress], SocketFailure>) -> Void

    private struct Lookup {
        var host: String
        var port: Int
        var completion: Completion
    }

    private struct State {
        var queue: [Lookup] = []
        var running = false
    }

    /// The process's resolver.
    static let shared = NameResolver()

    private let state = LockedValue(State())

    /// Resolves `host` on the resolver's thread; `completion` runs there with the addresses.
    func resolve(host: String, port: Int, completion: @escaping Completion) {
        let start = state.withLock { state in
            state.queue.append(Lookup(host: host, port: port, completion: completion))
            defer { state.running = true }
            return !state.running
        }
        guard start else { return }
        do throws(Errno) {
            try POSIX.startThread(named: "HTTPClientCore.resolver") { [self] in run() }
        } catch {
            let failed = state.withLock { state in
                state.running = false
                defer { state.queue.removeAll() }
                return state.queue
            }
            for lookup in failed { lookup.completion(.failure(.failed("cannot start the resolver's thread: \(error)"))) }
        }
    }

    private func run() {
        while let lookup = next() {
            do throws(SocketFailure) {
                lookup.completion(.success(try POSIX.resolveTCP(host: lookup.host, port: lookup.port)))
            } catch {
                lookup.completion(.failure(error))
            }
        }
    }

    /// The next lookup, or `nil` (and the thread ends) when none is queued.
    private func next() -> Lookup? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.running = false
                return nil
            }
            return state.queue.removeFirst()
        }
    }
}
