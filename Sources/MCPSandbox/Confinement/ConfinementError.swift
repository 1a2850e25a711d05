public import MCPCore

/// Why ``RootConfinement`` refused a path, or could not open it.
///
/// Match with `catch ConfinementError.escapesRoots` and the other static members
/// (``MCPCore/KindedError``); the ``detail`` says what was wrong in words a model can act on.
public struct ConfinementError: DetailedKindedError {
    public let kind: ErrorKind
    /// What was wrong, in a sentence.
    public let detail: String

    package init(_ kind: ErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The path is not one this helper accepts: empty, too long, not valid UTF-8, with a
    /// NUL or control byte, a percent-encoded byte, a backslash, or a Unicode look-alike of
    /// `/` or `.` or an invisible character.
    public static let invalidPath = ConfinementError("invalidPath", "the path is not valid")
    /// The path leads outside every allowed root (`..`, or an absolute path elsewhere).
    public static let escapesRoots = ConfinementError("escapesRoots", "the path leads outside the allowed roots")
    /// A component of the path is a symbolic link (found when opening: links are never followed).
    public static let symbolicLink = ConfinementError("symbolicLink", "the path goes through a symbolic link")
    /// Nothing exists at the path.
    public static let notFound = ConfinementError("notFound", "nothing exists at the path")
    /// The path names a directory where a file was wanted, or the other way round, or
    /// something that is neither (a device, a FIFO, a socket).
    public static let wrongKind = ConfinementError("wrongKind", "the path names the wrong kind of file")
    /// A root is not an absolute path to a directory (or not a `file://` URI).
    public static let invalidRoot = ConfinementError("invalidRoot", "the root is not valid")
    /// The system refused an operation (permissions, too many open files, …).
    public static let ioFailure = ConfinementError("ioFailure", "the file could not be read")
}
