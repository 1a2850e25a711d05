package import MCP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The example server `ondevice-mcp serve` and `ondevice-mcp-serve` run: the example tools
/// (``ExampleTools``) on an `MCPServer` named `ondevice-mcp`.
package enum ExampleServer {
    /// Makes the server, its notes in `dataDirectory` (`nil`: ``ExampleTools/defaultDataDirectory()``),
    /// with the file tools when `roots` are given.
    ///
    /// - Parameters:
    ///   - onToolFailure: Receives every error a tool throws, whole (the caller reads only that
    ///     the tool failed; the whole error is for whoever runs the server).
    ///   - warnings: Told, in a sentence, when a corrupt notes file was moved aside.
    /// - Throws: What ``registerExampleTools(on:dataDirectory:roots:warnings:now:)`` throws.
    package static func make(
        dataDirectory: String?, roots: [String] = [], onToolFailure: @escaping @Sendable (ToolFailure) -> Void,
        warnings: @escaping @Sendable (String) -> Void
    ) async throws -> MCPServer {
        let directory = try dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? ExampleTools.defaultDataDirectory()
        let server = MCPServer(
            name: "ondevice-mcp", version: OnDeviceMCPVersion.string, title: "OnDeviceMCP example tools",
            instructions: roots.isEmpty
                ? "Tools for the current time and the user's notes."
                : "Tools for the current time, the user's notes, and reading files under the allowed roots.",
            onToolFailure: onToolFailure)
        try await registerExampleTools(on: server, dataDirectory: directory, roots: roots, warnings: warnings)
        return server
    }
}
