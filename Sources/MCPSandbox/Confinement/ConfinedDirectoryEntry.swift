/// One entry of a directory listed by ``RootConfinement/listDirectory(_:)-(String)``.
public struct ConfinedDirectoryEntry: Hashable, Sendable {
    /// What an entry is (read without following links).
    public enum Kind: String, Hashable, Sendable {
        case file
        case directory
        case symbolicLink = "symlink"
        case other
    }

    /// The entry's name.
    public var name: String
    /// What it is.
    public var kind: Kind
    /// Its size in bytes, for a regular file.
    public var size: Int?
}
