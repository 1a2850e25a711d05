// The C-library calls of path confinement: opening one path component at a time without
// following symbolic links, checking what a descriptor is, reading it, listing a directory.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension POSIX {
    /// What a file-system object is.
    package enum FileKind: Hashable, Sendable {
        case regular
        case directory
        case symbolicLink
        case other
    }

    /// Opens a directory by path (following symbolic links: for a root the app configured),
    /// read-only and close-on-exec.
    package static func openDirectory(_ path: String) throws(Errno) -> Int32 {
        while true {
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
            if errno == EINTR { continue }
            throw Errno.current("open")
        }
    }

    /// Opens one name inside an open directory without following a symbolic link: a link in
    /// that place fails with `ELOOP` (see ``Errno/isSymbolicLinkRefusal``). Read-only,
    /// close-on-exec and non-blocking (so that a FIFO planted in the tree cannot hold the
    /// caller; regular files and directories ignore the flag).
    ///
    /// - Parameters:
    ///   - name: One path component: no `/`, not `..`.
    ///   - directory: The descriptor of the directory to look in.
    ///   - expectDirectory: Whether the name must be a directory (`O_DIRECTORY`).
    package static func openComponent(_ name: String, in directory: Int32, expectDirectory: Bool) throws(Errno) -> Int32 {
        var flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        if expectDirectory { flags |= O_DIRECTORY }
        while true {
            let descriptor = openat(directory, name, flags)
            if descriptor >= 0 { return descriptor }
            if errno == EINTR { continue }
            throw Errno.current("openat")
        }
    }

    /// What an open descriptor is, and its size in bytes.
    package static func describe(_ descriptor: Int32) throws(Errno) -> (kind: FileKind, size: Int) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Errno.current("fstat") }
        return (kind(of: info.st_mode), Int(info.st_size))
    }

    /// What the name inside an open directory is, without following a symbolic link.
    package static func describe(_ name: String, in directory: Int32) throws(Errno) -> (kind: FileKind, size: Int) {
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw Errno.current("fstatat") }
        return (kind(of: info.st_mode), Int(info.st_size))
    }

    private static func kind(of mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        default: .other
        }
    }

    /// Reads from the current offset until end of file or `limit` bytes, whichever comes
    /// first; `complete` says whether end of file was reached within the limit.
    package static func read(_ descriptor: Int32, upTo limit: Int) throws(Errno) -> (bytes: [UInt8], complete: Bool) {
        var bytes: [UInt8] = []
        let chunkSize = 64 * 1024
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count <= limit {
            let wanted = min(chunkSize, limit + 1 - bytes.count)
            let count = try read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<wanted]))
            if count == 0 { return (bytes, true) }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return (Array(bytes[0..<limit]), false)
    }

    /// The names in an open directory (without `.` and `..`), as raw bytes, in the order
    /// the system gives them. The descriptor stays open and owned by the caller.
    package static func directoryEntryNames(_ descriptor: Int32) throws(Errno) -> [[UInt8]] {
        let own = try duplicate(descriptor)
        guard let stream = fdopendir(own) else {
            let error = Errno.current("fdopendir")
            close(own)
            throw error
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw Errno.current("readdir") }
                return names
            }
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return Array(bytes[0..<length])
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
    }
}

extension Errno {
    /// The error `openat` with `O_NOFOLLOW` gives for a symbolic link (`ELOOP`).
    package var isSymbolicLinkRefusal: Bool { code == ELOOP }
    /// No such file or directory (`ENOENT`).
    package var isNotFound: Bool { code == ENOENT }
    /// A component that should be a directory is not one (`ENOTDIR`).
    package var isNotDirectory: Bool { code == ENOTDIR }
}
