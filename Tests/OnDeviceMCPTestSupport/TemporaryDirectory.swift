public import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL

    /// Creates an empty directory named `ondevice-mcp-tests-<UUID>`.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ondevice-mcp-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The directory's path.
    public var path: String { url.path }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names in the directory, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}
