// A file's identity and last change, for caches of what was read from it.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What tells one version of a file from another without reading it: its device and inode,
/// size, and the time of its last change (to the nanosecond, where the file system keeps it).
///
/// Two equal stamps mean the file was, as far as `stat` can tell, not replaced or rewritten in
/// between; a cache keyed by path re-reads a file whose stamp changed.
package struct FileStamp: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var changedSeconds: Int64
    package var changedNanoseconds: Int64
}

extension POSIX {
    /// The stamp of the file at `path`, following symbolic links; `nil` when it cannot be
    /// looked at (missing, unreadable directory on the way).
    package static func fileStamp(atPath path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let changed = info.st_ctimespec
        #else
        let changed = info.st_ctim
        #endif
        return FileStamp(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(info.st_size), changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec))
    }
}
