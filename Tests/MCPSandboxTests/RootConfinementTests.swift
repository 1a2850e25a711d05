import Foundation
import MCPCore
import MCPPlatform
import Testing

@testable import MCPSandbox

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The path-confinement helper: an escape corpus checked as text, and links checked when opening.
@Suite("Root confinement")
struct RootConfinementTests {
    /// What a path should come to.
    enum Verdict: Sendable, Equatable {
        case invalid
        case escapes
        case accepted([String])
    }

    struct PathCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let verdict: Verdict
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ verdict: Verdict) {
            self.name = name
            self.bytes = Array(text.utf8)
            self.verdict = verdict
        }

        init(_ name: String, bytes: [UInt8], _ verdict: Verdict) {
            self.name = name
            self.bytes = bytes
            self.verdict = verdict
        }
    }

    static let root = "/srv/root"

    /// The escape corpus (every case must be refused) and the paths that must resolve.
    static let corpus: [PathCase] = [
        PathCase("parent", "..", .escapes),
        PathCase("parent of a file", "../etc/passwd", .escapes),
        PathCase("parent in the middle", "a/../../etc/passwd", .escapes),
        PathCase("parent that stays inside", "a/../b", .escapes),
        PathCase("parent at the end", "a/b/..", .escapes),
        PathCase("absolute outside", "/etc/passwd", .escapes),
        PathCase("absolute prefix look-alike", "/srv/rootkit/x", .escapes),
        PathCase("absolute with parent", "/srv/root/../etc", .escapes),
        PathCase("NUL byte", "a\u{0}b", .invalid),
        PathCase("NUL then parent", "ok\u{0}/../../x", .invalid),
        PathCase("newline", "a\nb", .invalid),
        PathCase("DEL", "a\u{7F}", .invalid),
        PathCase("percent-encoded parent", "%2e%2e/etc/passwd", .invalid),
        PathCase("percent-encoded slash", "..%2fetc", .invalid),
        PathCase("upper-case percent", "%2E%2E", .invalid),
        PathCase("double-encoded parent", "%252e%252e", .invalid),
        PathCase("backslash parent", "..\\etc", .invalid),
        PathCase("division slash U+2215", "..\u{2215}etc", .invalid),
        PathCase("fraction slash U+2044", "a\u{2044}b", .invalid),
        PathCase("fullwidth solidus U+FF0F", "..\u{FF0F}etc", .invalid),
        PathCase("fullwidth full stops U+FF0E", "\u{FF0E}\u{FF0E}/etc", .invalid),
        PathCase("one dot leader U+2024", "\u{2024}\u{2024}/etc", .invalid),
        PathCase("two dot leader U+2025", "\u{2025}/etc", .invalid),
        PathCase("zero-width space", "a\u{200B}b", .invalid),
        PathCase("right-to-left override", "txt.\u{202E}exe", .invalid),
        PathCase("byte-order mark", "\u{FEFF}a", .invalid),
        PathCase("replacement character", "a\u{FFFD}b", .invalid),
        PathCase("overlong dot C0 AE", bytes: [0xC0, 0xAE, 0xC0, 0xAE, 0x2F, 0x65], .invalid),
        PathCase("overlong slash C0 AF", bytes: [0x2E, 0x2E, 0xC0, 0xAF, 0x65], .invalid),
        PathCase("overlong three-byte dot", bytes: [0xE0, 0x80, 0xAE], .invalid),
        PathCase("lone continuation byte", bytes: [0x61, 0x80], .invalid),
        PathCase("encoded surrogate", bytes: [0xED, 0xA0, 0x80], .invalid),
        PathCase("empty", "", .invalid),
        PathCase("component too long", String(repeating: "a", count: 256), .invalid),
        PathCase("relative file", "notes/today.txt", .accepted(["notes", "today.txt"])),
        PathCase("dot and empty components", "./notes//today.txt/", .accepted(["notes", "today.txt"])),
        PathCase("the root itself", ".", .accepted([])),
        PathCase("absolute inside", "/srv/root/a/b", .accepted(["a", "b"])),
        PathCase("absolute root", "/srv/root", .accepted([])),
        PathCase("three dots is a name", ".../x", .accepted(["...", "x"])),
        PathCase("percent not followed by hex", "100%/x", .accepted(["100%", "x"])),
        PathCase("accented name", "café/é.txt", .accepted(["café", "é.txt"])),
    ]

    @Test("Paths are checked as text", arguments: corpus)
    func text(_ testCase: PathCase) throws {
        let confinement = try RootConfinement(paths: [Self.root])
        switch testCase.verdict {
        case .invalid:
            #expect(throws: ConfinementError.invalidPath) { try confinement.resolve(utf8: testCase.bytes) }
        case .escapes:
            #expect(throws: ConfinementError.escapesRoots) { try confinement.resolve(utf8: testCase.bytes) }
        case .accepted(let components):
            let resolved = try confinement.resolve(utf8: testCase.bytes)
            #expect(resolved.components == components)
            #expect(resolved.root == Self.root)
        }
    }

    @Test("The corpus has at least 20 escapes")
    func corpusSize() {
        #expect(Self.corpus.filter { $0.verdict == .invalid || $0.verdict == .escapes }.count >= 20)
    }

    @Test("An absolute path picks the deepest root that holds it")
    func deepestRoot() throws {
        let confinement = try RootConfinement(paths: ["/srv", "/srv/root/inner/"])
        let resolved = try confinement.resolve("/srv/root/inner/x")
        #expect(resolved.rootIndex == 1)
        #expect(resolved.root == "/srv/root/inner")
        #expect(resolved.components == ["x"])
    }

    @Test(
        "Roots must be absolute, valid paths", arguments: ["relative", "/a/../b", "", "/a\u{0}"])
    func invalidRoots(_ root: String) {
        #expect(throws: ConfinementError.invalidRoot) { try RootConfinement(paths: [root]) }
    }

    @Test("MCP roots become confinement roots; other URIs are refused")
    func fromMCPRoots() throws {
        let confinement = try RootConfinement(roots: [Root(path: "/a b/c")])
        #expect(confinement.roots == ["/a b/c"])
        #expect(throws: ConfinementError.invalidRoot) { try RootConfinement(roots: [Root(uri: "https://x/")]) }
        #expect(throws: ConfinementError.invalidRoot) { try RootConfinement(roots: []) }
    }

    // MARK: On disk

    /// A root with `inside/file.txt`, `outside/secret.txt` next to it, and the links the test asks for.
    struct Tree {
        let base: String
        var root: String { base + "/root" }
        var outside: String { base + "/outside" }

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("confinement-\(UUID().uuidString)").path
            for directory in [base + "/root/inside/deeper", base + "/outside"] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try Data("hello".utf8).write(to: URL(fileURLWithPath: base + "/root/inside/file.txt"))
            try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/outside/secret.txt"))
        }

        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: root + "/" + name, withDestinationPath: target)
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: base)
        }
    }

    struct LinkCase: Sendable, CustomTestStringConvertible {
        let name: String
        let link: String
        let target: String
        let path: String
        var testDescription: String { name }
    }

    @Test(
        "Symbolic links are refused when opening, wherever they lead",
        arguments: [
            LinkCase(name: "file link outside", link: "leak.txt", target: "../outside/secret.txt", path: "leak.txt"),
            LinkCase(name: "absolute file link", link: "abs.txt", target: "/etc/hostname", path: "abs.txt"),
            LinkCase(name: "directory link outside", link: "out", target: "../outside", path: "out/secret.txt"),
            LinkCase(name: "link inside the root", link: "alias.txt", target: "inside/file.txt", path: "alias.txt"),
            LinkCase(name: "directory link inside", link: "in", target: "inside", path: "in/file.txt"),
            LinkCase(name: "dangling link", link: "gone", target: "../nowhere", path: "gone"),
        ])
    func links(_ testCase: LinkCase) throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.link(testCase.link, to: testCase.target)
        let confinement = try RootConfinement(paths: [tree.root])
        #expect(throws: ConfinementError.symbolicLink) { try confinement.readFile(testCase.path, maximumBytes: 100) }
    }

    @Test("A symbolic link swapped in after the check is refused at open time")
    func swappedAfterCheck() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let confinement = try RootConfinement(paths: [tree.root])
        let checked = try confinement.resolve("inside/file.txt")
        #expect(try confinement.openFile(checked).read(maximumBytes: 100).bytes == Array("hello".utf8))
        // The directory is replaced by a link to the outside after the path was checked.
        try FileManager.default.removeItem(atPath: tree.root + "/inside")
        try tree.link("inside", to: tree.outside)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: tree.outside + "/file.txt"))
        #expect(throws: ConfinementError.symbolicLink) { try confinement.openFile(checked) }
        // The same for the file itself.
        try FileManager.default.removeItem(atPath: tree.root + "/inside")
        try FileManager.default.createDirectory(atPath: tree.root + "/inside", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root + "/inside/file.txt", withDestinationPath: tree.outside + "/secret.txt")
        #expect(throws: ConfinementError.symbolicLink) { try confinement.openFile(checked) }
    }

    @Test("Files are read up to a limit; kinds and missing paths are told apart")
    func readingAndKinds() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let confinement = try RootConfinement(paths: [tree.root])
        let whole = try confinement.readFile("inside/file.txt", maximumBytes: 100)
        #expect(whole == ConfinedFile.Contents(bytes: Array("hello".utf8), isTruncated: false, fileSize: 5))
        let cut = try confinement.readFile(tree.root + "/inside/file.txt", maximumBytes: 2)
        #expect(cut == ConfinedFile.Contents(bytes: Array("he".utf8), isTruncated: true, fileSize: 5))
        #expect(throws: ConfinementError.notFound) { try confinement.readFile("inside/none.txt", maximumBytes: 1) }
        #expect(throws: ConfinementError.wrongKind) { try confinement.readFile("inside", maximumBytes: 1) }
        #expect(throws: ConfinementError.wrongKind) { try confinement.listDirectory("inside/file.txt") }
        #expect(throws: ConfinementError.wrongKind) { try confinement.readFile("inside/file.txt/x", maximumBytes: 1) }
        #expect(throws: ConfinementError.escapesRoots) { try confinement.readFile(tree.outside + "/secret.txt", maximumBytes: 10) }
    }

    @Test("A FIFO in the tree is refused without blocking")
    func fifo() throws {
        let tree = try Tree()
        defer { tree.remove() }
        #expect(mkfifo(tree.root + "/pipe", 0o600) == 0)
        let confinement = try RootConfinement(paths: [tree.root])
        #expect(throws: ConfinementError.wrongKind) { try confinement.readFile("pipe", maximumBytes: 10) }
    }

    @Test("A listing names each entry's kind without following links")
    func listing() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.link("leak", to: tree.outside)
        let confinement = try RootConfinement(paths: [tree.root])
        #expect(
            try confinement.listDirectory(".") == [
                ConfinedDirectoryEntry(name: "inside", kind: .directory),
                ConfinedDirectoryEntry(name: "leak", kind: .symbolicLink),
            ])
        #expect(
            try confinement.listDirectory("inside") == [
                ConfinedDirectoryEntry(name: "deeper", kind: .directory),
                ConfinedDirectoryEntry(name: "file.txt", kind: .file, size: 5),
            ])
    }
}
