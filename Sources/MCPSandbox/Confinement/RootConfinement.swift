public import MCPCore
internal import MCPPlatform

/// Keeps a tool that takes paths inside the directories it is allowed: resolves a path
/// against allowed roots, refuses every escape, and opens what it names with no gap between
/// the check and the use.
///
/// ```swift
/// let confinement = try RootConfinement(paths: ["/Users/me/Documents"])
/// let contents = try confinement.readFile("notes/today.txt", maximumBytes: 64 * 1024)
/// // or, with the client's MCP roots:
/// let confinement = try RootConfinement(roots: try await context.roots())
/// ```
///
/// Two steps, each of which refuses on its own:
/// 1. **As text** (``resolve(_:)``): the path must be valid UTF-8 without NUL or control
///    bytes, percent-encoded bytes (`%2e%2e`), backslashes, Unicode look-alikes of `/` or `.`
///    (such as U+2215 DIVISION SLASH, U+FF0F FULLWIDTH SOLIDUS, U+FF0E FULLWIDTH FULL STOP,
///    U+2024 ONE DOT LEADER) or invisible characters (zero-width, bidirectional controls, the
///    byte-order mark, U+FFFD from a repaired encoding); no component may be `..`. An
///    absolute path must lie under one of the roots; a relative path is taken relative to
///    the first root. Overlong UTF-8 forms (`C0 AE` for `.`) are invalid UTF-8 and refused.
/// 2. **On disk** (``open(_:)`` and the `read`/`list` methods): the root is opened, then each
///    component with `openat(…, O_NOFOLLOW)` relative to the directory opened before it, so
///    a symbolic link anywhere below the root is refused at the moment of opening — also
///    one swapped in after step 1. What is returned is an open descriptor (or the bytes read
///    from it), never a path to open again. Links are refused even when they point inside
///    the roots: the helper does not resolve them.
///
/// The roots themselves are trusted: they are the app's configuration, opened by path.
///
/// What it does not cover: a directory inside a root that another process moves out of the
/// root while a walk is inside it (the walk goes on in the directory it opened, now
/// elsewhere); hard links to files outside the roots (they are the same file, and look like
/// any other); and anything a tool does without this helper. It confines paths, not the
/// process: the tool still runs with the app's rights.
public struct RootConfinement: Hashable, Sendable {
    /// The allowed roots: absolute paths, without a trailing `/` (except `/` itself).
    public let roots: [String]

    /// The longest path accepted, in bytes.
    public static let maximumPathBytes = 4096
    /// The longest component accepted, in bytes.
    public static let maximumComponentBytes = 255

    /// Confines to these directories.
    ///
    /// - Throws: ``ConfinementError/invalidRoot`` when there is no root, or one is not an
    ///   absolute path, contains `..`, or fails the same text checks as a path.
    public init(paths: [String]) throws(ConfinementError) {
        guard !paths.isEmpty else { throw .invalidRoot("no root was given") }
        var roots: [String] = []
        for path in paths {
            guard path.hasPrefix("/") else { throw .invalidRoot("the root \"\(path)\" is not an absolute path") }
            let components: [String]
            do throws(ConfinementError) {
                components = try Self.components(of: Array(path.utf8))
            } catch {
                throw .invalidRoot("the root \"\(path)\" is not valid: \(error.detail)")
            }
            roots.append("/" + components.joined(separator: "/"))
        }
        self.roots = roots
    }

    /// Confines to the directories of MCP roots (`file://` URIs).
    ///
    /// - Throws: ``ConfinementError/invalidRoot`` when there is no root or one is not a
    ///   `file://` URI of an absolute path.
    public init(roots: [Root]) throws(ConfinementError) {
        var paths: [String] = []
        for root in roots {
            guard let path = root.path else { throw .invalidRoot("the root \(root.uri) is not a file:// URI of a local path") }
            paths.append(path)
        }
        try self.init(paths: paths)
    }

    // MARK: Resolving

    /// Checks `path` as text and says which root and components it names.
    ///
    /// - Throws: ``ConfinementError/invalidPath`` or ``ConfinementError/escapesRoots``.
    public func resolve(_ path: String) throws(ConfinementError) -> ConfinedPath {
        try resolve(utf8: Array(path.utf8))
    }

    /// Checks a path given as raw bytes (which may not be valid UTF-8) and says which root
    /// and components it names.
    ///
    /// - Throws: ``ConfinementError/invalidPath`` or ``ConfinementError/escapesRoots``.
    public func resolve(utf8 bytes: [UInt8]) throws(ConfinementError) -> ConfinedPath {
        let components = try Self.components(of: bytes)
        guard bytes.first == UInt8(ascii: "/") else {
            return ConfinedPath(rootIndex: 0, root: roots[0], components: components)
        }
        // An absolute path: under which root? The longest match wins.
        var best: (index: Int, depth: Int)?
        for (index, root) in roots.enumerated() {
            let rootComponents = root == "/" ? [] : root.split(separator: "/").map(String.init)
            guard components.count >= rootComponents.count,
                Array(components.prefix(rootComponents.count)) == rootComponents
            else { continue }
            if best.map({ rootComponents.count > $0.depth }) ?? true { best = (index, rootComponents.count) }
        }
        guard let best else {
            throw .escapesRoots("the path is outside the allowed roots (\(roots.joined(separator: ", ")))")
        }
        return ConfinedPath(rootIndex: best.index, root: roots[best.index], components: Array(components.dropFirst(best.depth)))
    }

    // MARK: Opening

    /// Opens what `path` names, component by component without following links.
    ///
    /// - Parameter expect: `.regular` for a file, `.directory` for a directory.
    func openDescriptor(_ path: ConfinedPath, expect: POSIX.FileKind) throws(ConfinementError) -> Int32 {
        var current: Int32
        do throws(Errno) {
            current = try POSIX.openDirectory(path.root)
        } catch {
            throw .ioFailure("the root \(path.root) cannot be opened: \(error.message)")
        }
        for (position, component) in path.components.enumerated() {
            let isLast = position == path.components.count - 1
            let next: Int32
            do throws(Errno) {
                next = try POSIX.openComponent(component, in: current, expectDirectory: !isLast || expect == .directory)
            } catch {
                // Linux says ENOTDIR, not ELOOP, for a link opened with O_DIRECTORY|O_NOFOLLOW:
                // look at what is there (without following it) to tell them apart.
                let isLink = error.isSymbolicLinkRefusal || (try? POSIX.describe(component, in: current).kind) == .symbolicLink
                POSIX.close(current)
                let shown = path.components.prefix(position + 1).joined(separator: "/")
                if isLink { throw .symbolicLink("\"\(shown)\" is a symbolic link, which is not followed") }
                if error.isNotFound { throw .notFound("\"\(shown)\" does not exist") }
                if error.isNotDirectory { throw .wrongKind("\"\(shown)\" is not a directory") }
                throw .ioFailure("\"\(shown)\" cannot be opened: \(error.message)")
            }
            POSIX.close(current)
            current = next
        }
        let kind: POSIX.FileKind
        do throws(Errno) {
            kind = try POSIX.describe(current).kind
        } catch {
            POSIX.close(current)
            throw .ioFailure("\"\(path.relativePath)\" cannot be examined: \(error.message)")
        }
        guard kind == expect else {
            POSIX.close(current)
            let what = expect == .directory ? "a directory" : "a regular file"
            throw .wrongKind("\"\(path.relativePath.isEmpty ? "." : path.relativePath)\" is not \(what)")
        }
        return current
    }

    /// Opens the regular file `path` names for reading.
    ///
    /// - Throws: ``ConfinementError`` (a text check, a symbolic link, not found, not a
    ///   regular file, or a system failure).
    public func openFile(_ path: String) throws(ConfinementError) -> ConfinedFile {
        try openFile(resolve(path))
    }

    /// Opens the regular file of a path resolved before: links are refused now, whatever
    /// was on disk when it was resolved.
    public func openFile(_ path: ConfinedPath) throws(ConfinementError) -> ConfinedFile {
        ConfinedFile(descriptor: try openDescriptor(path, expect: .regular), path: path)
    }

    /// Reads at most `maximumBytes` of the regular file `path` names.
    public func readFile(_ path: String, maximumBytes: Int) throws(ConfinementError) -> ConfinedFile.Contents {
        try openFile(path).read(maximumBytes: maximumBytes)
    }

    /// Lists the directory `path` names (the first root for `""` or `"."`), sorted by name.
    ///
    /// Entries whose names are not valid UTF-8 are left out. Each entry's kind is read
    /// without following links (a link is listed as a link).
    public func listDirectory(_ path: String) throws(ConfinementError) -> [ConfinedDirectoryEntry] {
        try listDirectory(resolve(path.isEmpty ? "." : path))
    }

    /// Lists the directory of a path resolved before.
    public func listDirectory(_ path: ConfinedPath) throws(ConfinementError) -> [ConfinedDirectoryEntry] {
        let descriptor = try openDescriptor(path, expect: .directory)
        defer { POSIX.close(descriptor) }
        let names: [[UInt8]]
        do throws(Errno) {
            names = try POSIX.directoryEntryNames(descriptor)
        } catch {
            throw .ioFailure("\"\(path.relativePath)\" cannot be listed: \(error.message)")
        }
        var entries: [ConfinedDirectoryEntry] = []
        for bytes in names {
            let name = String(decoding: bytes, as: UTF8.self)
            guard name.utf8.elementsEqual(bytes) else { continue }
            guard let described = try? POSIX.describe(name, in: descriptor) else { continue }
            let kind: ConfinedDirectoryEntry.Kind =
                switch described.kind {
                case .regular: .file
                case .directory: .directory
                case .symbolicLink: .symbolicLink
                case .other: .other
                }
            entries.append(ConfinedDirectoryEntry(name: name, kind: kind, size: described.kind == .regular ? described.size : nil))
        }
        return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}
