// TCP client sockets for the HTTP transport's own connections: name resolution, a connect
// that can be abandoned, and reads and writes that wait on the socket and a wake-up pipe at
// once, so that another thread can stop them at any moment.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a socket operation did not complete.
package enum SocketFailure: Error, Sendable, CustomStringConvertible {
    /// The wake-up pipe was signalled: the caller gave up on the operation.
    case cancelled
    /// The operation failed; the text says what failed and why.
    case failed(String)

    package var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .failed(let text): text
        }
    }
}

extension POSIX {
    #if canImport(Glibc)
    static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #elseif canImport(Musl)
    static let streamSocketType = SOCK_STREAM
    static let sendFlags = MSG_NOSIGNAL
    #else
    static let streamSocketType = SOCK_STREAM
    // Darwin has no MSG_NOSIGNAL: SIGPIPE is ignored process-wide instead (see connectTCP).
    static let sendFlags: Int32 = 0
    #endif

    /// Connects to `host` (a name or an address literal) on `port`, trying each address the
    /// name resolves to in turn.
    ///
    /// The socket is close-on-exec and non-blocking, with Nagle's algorithm off; every wait
    /// (the connect itself) also watches `wake`, and a byte there ends it with
    /// ``SocketFailure/cancelled``. Name resolution cannot be interrupted: it runs to its end
    /// on the calling thread, and a cancellation is noticed just after.
    package static func connectTCP(host: String, port: Int, wake: Int32) throws(SocketFailure) -> Int32 {
        var failures: [String] = []
        for address in try resolveTCP(host: host, port: port) {
            if isSignalled(wake) { throw .cancelled }
            do throws(SocketFailure) {
                return try connect(to: address, wake: wake)
            } catch .cancelled {
                throw .cancelled
            } catch {
                failures.append(error.description)
            }
        }
        throw .failed(failures.joined(separator: "; "))
    }

    /// One attempt: the event loop's non-blocking connect (``startConnect(to:)``), finished
    /// by waiting here for the socket or `wake`.
    private static func connect(to address: SocketAddress, wake: Int32) throws(SocketFailure) -> Int32 {
        let made = try startConnect(to: address)
        do throws(SocketFailure) {
            try wait(for: made, writable: true, wake: wake)
            if let failure = connectionFailure(made) { throw failure }
        } catch {
            close(made)
            throw error
        }
        return made
    }

    static func systemConnect(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
        #if canImport(Darwin)
        Darwin.connect(descriptor, address, length)
        #elseif canImport(Glibc)
        Glibc.connect(descriptor, address, length)
        #else
        Musl.connect(descriptor, address, length)
        #endif
    }

    static func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Darwin)
        Darwin.send(socket, bytes, count, flags)
        #elseif canImport(Glibc)
        Glibc.send(socket, bytes, count, flags)
        #else
        Musl.send(socket, bytes, count, flags)
        #endif
    }

    /// Waits until `socket` can be read (or written), or `wake` has a byte.
    ///
    /// - Throws: ``SocketFailure/cancelled`` when `wake` is signalled (it is left signalled:
    ///   the caller's wake-up pipe means "stop", once and for all).
    package static func wait(for socket: Int32, writable: Bool, wake: Int32) throws(SocketFailure) {
        var entries = [
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            pollfd(fd: socket, events: Int16(writable ? POLLOUT : POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&entries, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .failed("poll: \(message(for: errno))")
            }
            if entries[0].revents != 0 { throw .cancelled }
            if entries[1].revents != 0 { return }
        }
    }

    /// Whether a wake-up pipe has a byte, without waiting.
    package static func isSignalled(_ wake: Int32) -> Bool {
        var entry = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, 0)
            if ready >= 0 { return ready == 1 }
            if errno != EINTR { return false }
        }
    }

    /// Sends all of `bytes` on a non-blocking socket, waiting for room as needed.
    package static func sendAll(_ socket: Int32, _ bytes: [UInt8], wake: Int32) throws(SocketFailure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                systemSend(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, sendFlags)
            }
            if count >= 0 {
                offset += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(for: socket, writable: true, wake: wake)
            default: throw .failed("send: \(message(for: errno))")
            }
        }
    }

    /// Reads what the socket has (at most `buffer.count` bytes), waiting for it as needed;
    /// returns 0 when the peer closed its side.
    package static func receive(_ socket: Int32, into buffer: UnsafeMutableRawBufferPointer, wake: Int32) throws(SocketFailure) -> Int {
        while true {
            let count = recv(socket, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(for: socket, writable: false, wake: wake)
            default: throw .failed("recv: \(message(for: errno))")
            }
        }
    }

    /// Whether an idle kept-alive connection can carry another request: the peer has sent
    /// nothing (no close, no stray bytes) since its last response.
    package static func isIdleConnectionUsable(_ socket: Int32) -> Bool {
        var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, 0)
            if ready >= 0 { return ready == 0 }
            if errno != EINTR { return false }
        }
    }
}
