/// A path that ``RootConfinement`` accepted: an allowed root and the components below it,
/// checked as text (no `..`, no odd encoding) but not yet opened.
///
/// It names nothing on disk by itself; ``RootConfinement/openFile(_:)-(ConfinedPath)`` and its
/// siblings open it component by component, refusing symbolic links at that moment, so a
/// link swapped in after the check is still refused.
public struct ConfinedPath: Hashable, Sendable, CustomStringConvertible {
    /// The index of the root in ``RootConfinement/roots``.
    public let rootIndex: Int
    /// The root's absolute path.
    public let root: String
    /// The components below the root (none for the root itself); never empty, `.` or `..`.
    public let components: [String]

    /// The path below the root, `/`-separated (empty for the root itself).
    public var relativePath: String { components.joined(separator: "/") }

    /// The full path, for messages (never reopened by path).
    public var description: String {
        components.isEmpty ? root : (root == "/" ? "/" : root + "/") + relativePath
    }
}
