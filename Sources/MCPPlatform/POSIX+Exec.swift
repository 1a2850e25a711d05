// The process's environment and end, and the file-system look-ups the process box
// needs (real paths, symbolic links, a private directory).

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension POSIX {
    /// Removes the variable `name` from this process's environment (`unsetenv`), so that no
    /// process started from here inherits it.
    package static func unsetEnvironment(_ name: String) {
        _ = unsetenv(name)
    }

    /// Ends this process at once with `status` (`_exit`: no clean-up handlers, no buffered output).
    package static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }

    /// The absolute path of `path` with every symbolic link, `.` and `..` resolved; `nil`
    /// when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What the symbolic link at `path` points to (as written in the link); `nil` when
    /// `path` is not a symbolic link.
    package static func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, 4096)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter); `nil` when
    /// it cannot be read.
    package static func readPrefix(of path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in (try? POSIX.read(descriptor, into: buffer)) ?? -1 }
        guard read >= 0 else { return nil }
        return Array(bytes[0..<read])
    }

    /// `/dev/null`, open for writing: a close-on-exec descriptor numbered 3 or higher.
    package static func openNullDevice() throws(Errno) -> Int32 {
        let opened = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard opened >= 0 else { throw Errno.current("open(/dev/null)") }
        guard opened < 3 else { return opened }
        defer { close(opened) }
        return try duplicate(opened)
    }

    /// Whether this process runs as root (real or effective user id 0).
    package static var isRoot: Bool { geteuid() == 0 || getuid() == 0 }

    /// This process's real user id.
    package static var userID: UInt32 { UInt32(getuid()) }

    /// This process's real group id.
    package static var groupID: UInt32 { UInt32(getgid()) }

    /// Whether `path` lies on a file system mounted read-only (`statvfs`'s `ST_RDONLY`).
    package static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return (UInt(info.f_flag) & UInt(ST_RDONLY)) != 0
    }

    /// Whether `path` names a regular file (following symbolic links).
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in the directory `path` (without `.` and `..`); `nil` when it cannot be read.
    package static func directoryEntries(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `path` exists (following symbolic links).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Creates a new directory, readable by this user only, named `prefix` and six random
    /// characters under `parent` (`mkdtemp`); returns its path.
    ///
    /// - Throws: ``Errno`` from `mkdtemp`.
    package static func makePrivateDirectory(in parent: String, prefix: String) throws(Errno) -> String {
        var template = Array((parent.hasSuffix("/") ? parent : parent + "/").utf8CString.dropLast())
        template += Array((prefix + "XXXXXX").utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let made else { throw Errno.current("mkdtemp(\(parent))") }
        return made
    }

    /// Creates the directory `path` (mode 0700); an existing directory is fine.
    ///
    /// - Throws: ``Errno`` from `mkdir`.
    package static func makeDirectory(_ path: String) throws(Errno) {
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Errno.current("mkdir(\(path))") }
    }

    /// This process's working directory; `nil` when it cannot be told.
    package static func currentDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }
}

extension Errno {
    /// Whether the error is `ENOENT`: no such file or directory.
    package var isNoSuchFile: Bool { code == ENOENT }

    /// Whether `clone` failed because the kernel would not make the namespaces asked for
    /// (user namespaces turned off or limited, or a kernel without one of them): `EPERM`,
    /// `EINVAL`, `ENOSPC`, `EUSERS`, `ENOSYS`.
    package var isNamespaceRefusal: Bool {
        #if os(Linux)
        [EPERM, EINVAL, ENOSPC, EUSERS, ENOSYS].contains(code)
        #else
        false
        #endif
    }
}

extension POSIX {
    /// The value of the environment variable `name`, or `nil` when it is not set.
    package static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
