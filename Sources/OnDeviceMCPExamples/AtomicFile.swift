// Crash-safe file replacement with open/write/fsync/rename, directly on the C library.

internal import MCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("AtomicFile needs a POSIX C library (Darwin, Glibc or Musl).")
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a file could not be written or its directory synced.
struct AtomicFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, such as `fsync`.
    let operation: String
    /// The path it failed on.
    let path: String
    /// The value of `errno`.
    let code: Int32

    /// `operation path: strerror text (errno N)`.
    var description: String {
        "\(operation) \(path): \(POSIX.message(for: code)) (errno \(code))"
    }
}

/// Replaces a file so that a crash at any moment leaves either the old or the new content.
///
/// ``write(_:to:)`` writes a temporary file in the target's directory, `fsync`s it,
/// `rename`s it over the target (atomic within one file system) and `fsync`s the directory
/// so the rename itself is durable. When it returns, the new content survives a crash or a
/// power loss; when it throws, the target is unchanged and the temporary file is removed.
enum AtomicFile {
    /// The prefix of temporary files, `.<name>.tmp-`; leftovers from a crash can be removed.
    static func temporaryPrefix(for target: URL) -> String {
        ".\(target.lastPathComponent).tmp-"
    }

    /// Atomically and durably replaces the file at `target` with `bytes`, with mode 0600.
    static func write(_ bytes: [UInt8], to target: URL) throws(AtomicFileError) {
        let directory = target.deletingLastPathComponent().path
        let temporary = directory + "/" + temporaryPrefix(for: target) + UUID().uuidString
        let targetPath = target.path

        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFileError(operation: "open", path: temporary, code: errno) }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        do throws(AtomicFileError) {
            try writeAll(bytes, to: descriptor, path: temporary)
            try syncDescriptor(descriptor, path: temporary)
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw AtomicFileError(operation: "close", path: temporary, code: errno) }
        guard rename(temporary, targetPath) == 0 else {
            throw AtomicFileError(operation: "rename", path: targetPath, code: errno)
        }
        succeeded = true
        try syncDirectory(directory)
    }

    /// Renames `source` to `destination` (both in `directory`) and makes the rename durable.
    static func move(_ source: URL, to destination: URL) throws(AtomicFileError) {
        guard rename(source.path, destination.path) == 0 else {
            throw AtomicFileError(operation: "rename", path: source.path, code: errno)
        }
        try syncDirectory(source.deletingLastPathComponent().path)
    }

    /// `fsync`s a directory, so the names in it (a rename, a new file) survive a crash.
    static func syncDirectory(_ path: String) throws(AtomicFileError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AtomicFileError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        try syncDescriptor(descriptor, path: path)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(AtomicFileError) {
        do {
            try POSIX.writeAll(descriptor, bytes)
        } catch {
            throw AtomicFileError(operation: "write", path: path, code: error.code)
        }
    }

    private static func syncDescriptor(_ descriptor: Int32, path: String) throws(AtomicFileError) {
        #if canImport(Darwin)
        // On Apple platforms fsync does not flush the drive's cache; F_FULLFSYNC does.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw AtomicFileError(operation: "fsync", path: path, code: errno) }
        }
    }
}
