internal import MCPCore
internal import MCPPlatform

/// A regular file opened by ``RootConfinement``: its descriptor, closed when this object goes.
///
/// Read it through this object (``read(maximumBytes:)``) or use ``descriptor`` directly while
/// the object lives; never reopen its path, which could lead elsewhere by then.
public final class ConfinedFile {
    /// The contents read from a file, and whether they are all of it.
    public struct Contents: Hashable, Sendable {
        /// The bytes read.
        public var bytes: [UInt8]
        /// Whether the file had more than was read.
        public var isTruncated: Bool
        /// The file's size when it was opened, in bytes.
        public var fileSize: Int
    }

    /// The open descriptor (read-only, close-on-exec); valid until this object is released.
    public let descriptor: Int32
    /// The path that was opened.
    public let path: ConfinedPath

    init(descriptor: Int32, path: ConfinedPath) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        POSIX.close(descriptor)
    }

    /// Reads at most `maximumBytes` bytes from the current offset.
    ///
    /// - Throws: ``ConfinementError/ioFailure`` when the read fails.
    public func read(maximumBytes: Int) throws(ConfinementError) -> Contents {
        do throws(Errno) {
            let size = try POSIX.describe(descriptor).size
            let (bytes, complete) = try POSIX.read(descriptor, upTo: max(0, maximumBytes))
            return Contents(bytes: bytes, isTruncated: !complete, fileSize: size)
        } catch {
            throw .ioFailure("\"\(path.relativePath)\" cannot be read: \(error.message)")
        }
    }
}

/// A ``ConfinedFile`` owns a descriptor that it reads with a file offset: use it from one task.
@available(*, unavailable)
extension ConfinedFile: Sendable {}
