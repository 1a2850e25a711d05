import Foundation
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-connection HTTP server in the test's own process, written out by hand, for tests that
/// must see what the client does to its socket: whether it stops reading, whether it closes.
final class LoopbackHTTPServer: Sendable {
    private let listener: LocalSocket

    init() throws {
        listener = try LocalSocket.tcp()
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String = "/") throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(listener.port)\(path)"))
    }

    /// Accepts one connection and runs `body` with it on a thread of its own (it blocks);
    /// the connection is closed after.
    func serve<T: Sendable>(_ body: @escaping @Sendable (Connection) -> T) async -> T? {
        let listening = listener.descriptor
        return await onThread {
            let descriptor = accept(listening, nil, nil)
            guard descriptor >= 0 else { return nil }
            defer { POSIX.close(descriptor) }
            return body(Connection(descriptor: descriptor))
        }
    }

    /// Stops listening; a `serve` still waiting for a connection returns `nil`.
    func stop() {
        _ = shutdown(listener.descriptor, Int32(SHUT_RDWR))
        listener.close()
    }

    /// One accepted connection, read and written with blocking calls.
    struct Connection: Sendable {
        let descriptor: Int32

        #if canImport(Darwin)
        private static let noSignal: Int32 = 0
        #else
        private static let noSignal = Int32(MSG_NOSIGNAL)
        #endif

        /// Reads a request head (the tests' requests have no body); `false` when the client
        /// closed first.
        func readRequestHead() -> Bool {
            var received: [UInt8] = []
            var byte: UInt8 = 0
            while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
                guard recv(descriptor, &byte, 1, 0) == 1 else { return false }
                received.append(byte)
            }
            return true
        }

        /// Writes all of `text`; `false` when the client is gone.
        @discardableResult
        func write(_ text: String) -> Bool {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Self.noSignal) }
                guard count > 0 else { return false }
                bytes = bytes.dropFirst(count)
            }
            return true
        }

        /// Waits until the client closes the connection (or resets it); `true` then.
        func waitForClose() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return true }
            }
        }

        /// How a flood ended.
        enum Flood: Sendable, Equatable {
            /// A write found no room after `heldBack()` said yes: TCP held the server back
            /// with `sent` of the body's bytes written.
            case heldBack(sent: Int)
            /// Every byte went without being held back.
            case sentAll
            /// The client went away.
            case failed
        }

        /// Sends a `Content-Length` body of `total` bytes as fast as the client takes them;
        /// reports the first time it finds no room once `heldBack()` is true, then sends the
        /// rest (waiting for room) and returns how it went.
        func flood(total: Int, reportedTo report: OneShot<Flood>, heldBack: @escaping @Sendable () -> Bool) -> Flood {
            guard write("HTTP/1.1 200 OK\r\nContent-Length: \(total)\r\n\r\n") else { return .failed }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
            var sent = 0
            while sent < total {
                let count = block.withUnsafeBytes { send(descriptor, $0.baseAddress, min($0.count, total - sent), Self.noSignal) }
                if count > 0 {
                    sent += count
                    continue
                }
                guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                    report.fulfill(.failed)
                    return .failed
                }
                // No room: wait for some, and while none comes, look again whether the client
                // has stopped reading (a room that came before it stopped may never come back).
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                while poll(&entry, 1, 20) == 0 {
                    if heldBack() { report.fulfill(.heldBack(sent: sent)) }
                }
            }
            report.fulfill(.sentAll)
            return report.current ?? .sentAll
        }
    }
}
