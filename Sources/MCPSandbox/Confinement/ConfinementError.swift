/// Why ``RootConfinement`` refused a path, or could not open it.
///
/// Match with `catch ConfinementError.escapesRoots` and the other static members; the
/// ``detail`` says what was wrong in words a model can act on.
public struct ConfinementError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidPath
        case escapesRoots
        case symbolicLink
        case notFound
        case wrongKind
        case invalidRoot
        case ioFailure
    }

    private let code: Code
    /// What was wrong, in a sentence.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The path is not one this helper accepts: empty, too long, not valid UTF-8, with a
    /// NUL or control byte, a percent-encoded byte, a backslash, or a Unicode look-alike of
    /// `/` or `.` or an invisible character.
    public static let invalidPath = ConfinementError(.invalidPath, "the path is not valid")
    /// The path leads outside every allowed root (`..`, or an absolute path elsewhere).
    public static let escapesRoots = ConfinementError(.escapesRoots, "the path leads outside the allowed roots")
    /// A component of the path is a symbolic link (found when opening: links are never followed).
    public static let symbolicLink = ConfinementError(.symbolicLink, "the path goes through a symbolic link")
    /// Nothing exists at the path.
    public static let notFound = ConfinementError(.notFound, "nothing exists at the path")
    /// The path names a directory where a file was wanted, or the other way round, or
    /// something that is neither (a device, a FIFO, a socket).
    public static let wrongKind = ConfinementError(.wrongKind, "the path names the wrong kind of file")
    /// A root is not an absolute path to a directory (or not a `file://` URI).
    public static let invalidRoot = ConfinementError(.invalidRoot, "the root is not valid")
    /// The system refused an operation (permissions, too many open files, …).
    public static let ioFailure = ConfinementError(.ioFailure, "the file could not be read")

    static func invalidPath(_ detail: String) -> ConfinementError { ConfinementError(.invalidPath, detail) }
    static func escapesRoots(_ detail: String) -> ConfinementError { ConfinementError(.escapesRoots, detail) }
    static func symbolicLink(_ detail: String) -> ConfinementError { ConfinementError(.symbolicLink, detail) }
    static func notFound(_ detail: String) -> ConfinementError { ConfinementError(.notFound, detail) }
    static func wrongKind(_ detail: String) -> ConfinementError { ConfinementError(.wrongKind, detail) }
    static func invalidRoot(_ detail: String) -> ConfinementError { ConfinementError(.invalidRoot, detail) }
    static func ioFailure(_ detail: String) -> ConfinementError { ConfinementError(.ioFailure, detail) }

    /// Errors are equal when they are of the same kind, whatever their detail.
    public static func == (lhs: ConfinementError, rhs: ConfinementError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Matches a ``ConfinementError`` of the same kind, for `catch` clauses.
    public static func ~= (pattern: ConfinementError, error: any Error) -> Bool {
        (error as? ConfinementError) == pattern
    }

    public var description: String { detail }
}
