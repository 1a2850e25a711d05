#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket this test process listens on (or, for UDP, is bound to), for a boxed server to
/// reach for: TCP on 127.0.0.1 or ::1, UDP on 127.0.0.1, a Unix-domain socket at a path or
/// in the abstract namespace. Connections wait in the backlog, never accepted. Closed by
/// ``close()``.
public final class LocalSocket: Sendable {
    public let descriptor: Int32
    /// The port (TCP and UDP), or 0.
    public let port: UInt16
    /// How a probe names it: `"127.0.0.1 PORT"`, `"::1 PORT"`, a path, or `"@name"`.
    public let target: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private init(descriptor: Int32, port: UInt16, target: String) {
        self.descriptor = descriptor
        self.port = port
        self.target = target
    }

    private static var streamType: Int32 {
        #if canImport(Darwin)
        SOCK_STREAM
        #else
        Int32(SOCK_STREAM.rawValue)
        #endif
    }

    private static var datagramType: Int32 {
        #if canImport(Darwin)
        SOCK_DGRAM
        #else
        Int32(SOCK_DGRAM.rawValue)
        #endif
    }

    /// TCP on the loopback address of IPv4 or IPv6, on a port the system picks.
    public static func tcp(ipv6: Bool = false) throws -> LocalSocket {
        try inet(ipv6: ipv6, type: streamType)
    }

    /// UDP on 127.0.0.1, on a port the system picks.
    public static func udp() throws -> LocalSocket {
        try inet(ipv6: false, type: datagramType)
    }

    private static func inet(ipv6: Bool, type: Int32) throws -> LocalSocket {
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, type, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var port: UInt16 = 0
        let bound: Bool
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
                }
            }
            port = UInt16(bigEndian: address.sin6_port)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
                }
            }
            port = UInt16(bigEndian: address.sin_port)
        }
        guard bound, type == datagramType || listen(descriptor, 16) == 0 else {
            let code = errno
            _ = closeDescriptor(descriptor)
            throw Failure(description: "bind/listen on loopback: errno \(code)")
        }
        return LocalSocket(descriptor: descriptor, port: port, target: "\(ipv6 ? "::1" : "127.0.0.1") \(port)")
    }

    /// A Unix-domain stream socket listening at `path`, or, for a name starting with `@`, at
    /// that name in the abstract namespace.
    public static func unix(_ name: String) throws -> LocalSocket {
        let descriptor = socket(AF_UNIX, streamType, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if name.hasPrefix("@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            _ = closeDescriptor(descriptor)
            throw Failure(description: "the socket name is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (name.hasPrefix("@") ? 0 : 1))
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 }
        }
        guard bound else {
            let code = errno
            _ = closeDescriptor(descriptor)
            throw Failure(description: "bind/listen at \(name): errno \(code)")
        }
        return LocalSocket(descriptor: descriptor, port: 0, target: name)
    }

    public func close() {
        _ = closeDescriptor(descriptor)
    }
}

/// `close(2)`, under a name ``LocalSocket/close()`` does not shadow.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
