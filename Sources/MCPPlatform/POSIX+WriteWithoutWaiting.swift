// Writing to a blocking descriptor without waiting for room, and without changing its flags.

internal import CMCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a write that must not wait did.
package enum WriteWithoutWaiting: Sendable, Equatable {
    /// This many bytes were written: all, some (a pipe takes what it has room for), or none
    /// when the descriptor can take nothing now.
    case wrote(Int)
    /// This system cannot write to this descriptor without waiting in one call (not Linux,
    /// a kernel before 6.5, a seccomp filter, or a descriptor whose driver does not support
    /// it, such as a terminal or a FIFO opened by path): poll for writability instead.
    case unsupported
    /// The write failed (for example `EPIPE`: the reader is gone).
    case failed(Errno)
}

extension POSIX {
    /// Writes as much of `bytes` to `descriptor` as it takes now, in one call that never
    /// waits, however the descriptor was opened.
    ///
    /// On Linux 6.5 and later this is `pwritev2` with `RWF_NOWAIT` at the current position:
    /// a full pipe or socket refuses at once, yet stays blocking for the other processes that
    /// share it (setting `O_NONBLOCK` on an inherited standard output would change it for
    /// them too). It saves the `poll` that ``isWritable(_:orErrored:)`` costs before each
    /// piece, and writes more than ``atomicPipeWrite`` bytes in one call. Elsewhere, and for
    /// descriptors the kernel cannot write to this way, the answer is
    /// ``WriteWithoutWaiting/unsupported``.
    package static func writeWithoutWaiting(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> WriteWithoutWaiting {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .wrote(0) }
        let written = mcp_write_nowait(descriptor, base, bytes.count)
        if written >= 0 { return .wrote(written) }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK { return .wrote(0) }
        if code == EOPNOTSUPP { return .unsupported }
        return .failed(Errno(code: code, operation: "write"))
    }

    /// Whether `descriptor` is a pipe, a FIFO or a socket: what
    /// ``writeWithoutWaiting(_:_:)`` is for. A regular file is better written after polling
    /// (which always says yes): XFS, for one, takes `RWF_NOWAIT` but refuses it whenever the
    /// file's times must change, which is nearly every write.
    package static func isPipeOrSocket(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK
    }
}
