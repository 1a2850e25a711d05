// TCP client sockets for an event loop: addresses resolved apart from connecting, a connect
// that starts and is finished later, and reads and writes that never wait (the loop waits).

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One address a TCP connection can be made to, as `getaddrinfo` gave it.
package struct SocketAddress: Sendable, Hashable {
    let family: Int32
    let type: Int32
    let socketProtocol: Int32
    /// The `sockaddr`'s bytes.
    let bytes: [UInt8]
}

/// What a read or a write that must not wait did.
package enum SocketTransfer: Sendable, Equatable {
    /// This many bytes went (for a read, 0 is the end of the peer's output).
    case transferred(Int)
    /// Nothing can go now: wait for readiness.
    case wouldBlock
    /// The call failed; the text says which call and why.
    case failed(String)
}

extension POSIX {
    /// The addresses of `host` when it is an address literal (`127.0.0.1`, `::1`), found
    /// without a lookup; `nil` for a name, which only ``resolveTCP(host:port:)`` resolves.
    package static func addressLiterals(host: String, port: Int) -> [SocketAddress]? {
        try? addresses(host: host, port: port, flags: AI_NUMERICSERV | AI_NUMERICHOST)
    }

    /// The addresses of `host` (a name or an address literal) on `port`.
    ///
    /// It blocks while the name is looked up (files, DNS): never call it on an event loop.
    package static func resolveTCP(host: String, port: Int) throws(SocketFailure) -> [SocketAddress] {
        try addresses(host: host, port: port, flags: AI_NUMERICSERV)
    }

    private static func addresses(host: String, port: Int, flags: Int32) throws(SocketFailure) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocketType
        hints.ai_flags = flags
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == EAI_SYSTEM ? message(for: errno) : String(cString: gai_strerror(status))
            throw .failed("the name does not resolve: \(reason)")
        }
        defer { freeaddrinfo(first) }
        var found: [SocketAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            next = entry.pointee.ai_next
            guard let address = entry.pointee.ai_addr else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))
            found.append(
                SocketAddress(
                    family: entry.pointee.ai_family, type: entry.pointee.ai_socktype,
                    socketProtocol: entry.pointee.ai_protocol, bytes: bytes))
        }
        return found
    }

    /// Starts connecting to `address` without waiting: a close-on-exec, non-blocking socket
    /// with Nagle's algorithm off. Wait until it is writable, then ask
    /// ``connectionFailure(_:)`` whether the connection was made.
    package static func startConnect(to address: SocketAddress) throws(SocketFailure) -> Int32 {
        ignoreBrokenPipeSignal()
        #if canImport(Glibc)
        let made = socket(
            address.family, address.type | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), address.socketProtocol)
        #else
        let made: Int32 = spawnLock.withLock {
            // Under the spawn lock, so that no child spawned meanwhile inherits the socket
            // before it is close-on-exec.
            let descriptor = socket(address.family, address.type, address.socketProtocol)
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return descriptor
        }
        if made >= 0 { _ = fcntl(made, F_SETFL, fcntl(made, F_GETFL) | O_NONBLOCK) }
        #endif
        guard made >= 0 else { throw .failed("socket: \(message(for: errno))") }
        var on: Int32 = 1
        _ = setsockopt(made, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(made, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var result: Int32
        repeat {
            result = address.bytes.withUnsafeBytes { raw in
                systemConnect(
                    made, UnsafeMutablePointer(mutating: raw.baseAddress?.assumingMemoryBound(to: sockaddr.self)), socklen_t(raw.count))
            }
        } while result != 0 && errno == EINTR
        if result == 0 { return made }
        let code = errno
        guard code == EINPROGRESS || code == EALREADY else {
            close(made)
            throw .failed("connect: \(message(for: code))")
        }
        return made
    }

    /// Why a pending connect failed, once its socket is writable; `nil` when it is made.
    package static func connectionFailure(_ descriptor: Int32) -> SocketFailure? {
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else {
            return .failed("getsockopt: \(message(for: errno))")
        }
        return failure == 0 ? nil : .failed("connect: \(message(for: failure))")
    }

    /// Sends what the socket takes of `bytes` now.
    package static func sendAvailable(_ socket: Int32, _ bytes: ArraySlice<UInt8>) -> SocketTransfer {
        while true {
            let count = bytes.withUnsafeBytes { systemSend(socket, $0.baseAddress, $0.count, sendFlags) }
            if count >= 0 { return .transferred(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed("send: \(message(for: errno))")
            }
        }
    }

    /// Reads what the socket has now, at most `buffer.count` bytes.
    package static func receiveAvailable(_ socket: Int32, into buffer: UnsafeMutableRawBufferPointer) -> SocketTransfer {
        while true {
            let count = recv(socket, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return .transferred(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed("recv: \(message(for: errno))")
            }
        }
    }
}
