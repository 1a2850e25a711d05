package import MCP
internal import MCPPlatform

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The example tools `ondevice-mcp serve` offers: the kind of live app data an app exposes.
///
/// - `clock_now`: the current date and time in an IANA time zone.
/// - `notes_add`, `notes_search`, `notes_list`, `notes_delete`: a crash-safe notes store
///   (``NotesStore``) kept in one JSON file in a data directory.
/// - `files_list`, `files_read` (only with roots): read-only, size-capped text access to
///   the given directories, confined to them with ``MCPSandbox/RootConfinement``.
package enum ExampleTools {
    /// The tools ``registerExampleTools(on:dataDirectory:roots:warnings:now:)`` registers, in name order.
    package static let toolNames = ["clock_now", "notes_add", "notes_delete", "notes_list", "notes_search"]
    /// The tools registered in addition when roots are given, in name order.
    package static let fileToolNames = ["files_list", "files_read"]

    /// The default data directory: the platform's per-user application data directory
    /// followed by `ondevice-mcp`.
    ///
    /// On Linux that is `$XDG_DATA_HOME/ondevice-mcp` (by default
    /// `~/.local/share/ondevice-mcp`); on macOS `~/Library/Application Support/ondevice-mcp`.
    ///
    /// - Throws: ``NotesStoreError`` when the platform names no such directory.
    package static func defaultDataDirectory() throws -> URL {
        guard let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else {
            throw NotesStoreError("this platform has no per-user application data directory; pass --data-dir")
        }
        return base.appendingPathComponent("ondevice-mcp", isDirectory: true)
    }

    /// The default data directory's path, or a description of it when there is none.
    package static var defaultDataDirectoryDescription: String {
        (try? defaultDataDirectory().path) ?? "none on this platform"
    }

    /// Writes `warning: <text>` to standard error; a closed stream is ignored.
    @usableFromInline
    static func writeWarningToStandardError(_ text: String) {
        try? POSIX.writeAll(POSIX.standardError, Array("warning: \(text)\n".utf8))
    }
}

/// Registers the example tools on `server`, opening the notes store in `dataDirectory`.
///
/// - Parameters:
///   - server: The server to add `clock_now` and the `notes_*` tools to.
///   - dataDirectory: Where `notes.json` lives; created if needed.
///   - warnings: Told, in a sentence, when a corrupt notes file was moved aside
///     (the default writes `warning: …` to standard error).
///   - roots: Directories `files_list` and `files_read` may read (absolute paths); with
///     none (the default) those two tools are not registered.
///   - now: The current moment `clock_now` reads (the system clock unless a test fixes it).
/// - Throws: ``NotesStoreError`` when the store cannot be opened; ``MCPSandbox/ConfinementError``
///   when a root is not an absolute path; an error from ``MCP/MCPServer/register(_:)`` when
///   a tool cannot be registered.
package func registerExampleTools(
    on server: MCPServer, dataDirectory: URL, roots: [String] = [],
    warnings: @escaping @Sendable (String) -> Void = ExampleTools.writeWarningToStandardError,
    now: @escaping @Sendable () -> Date = { Date() }
) async throws {
    let store = try NotesStore(directory: dataDirectory, warnings: warnings)
    try await registerExampleTools(on: server, store: store, now: now)
    if !roots.isEmpty {
        try await FilesTools.register(on: server, confinement: RootConfinement(paths: roots))
    }
}

/// Registers the example tools over an open store, with a clock that tests can set.
func registerExampleTools(on server: MCPServer, store: NotesStore, now: @escaping @Sendable () -> Date) async throws {
    try await ClockTool.register(on: server, now: now)
    try await NotesTools.register(on: server, store: store)
}
