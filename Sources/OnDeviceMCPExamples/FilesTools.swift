internal import MCP
internal import MCPCore
internal import MCPSandbox

/// `files_list` and `files_read`: read-only access to the directories given with
/// `ondevice-mcp serve --root DIR`, through ``MCPSandbox/RootConfinement``.
///
/// Every path is resolved against the roots and opened component by component without
/// following symbolic links, so `..`, absolute paths elsewhere, links and odd encodings
/// are refused with a reason the model can read. `files_read` returns text only (valid
/// UTF-8), at most ``maximumReadBytes`` of it, saying when it cut.
enum FilesTools {
    /// The most bytes `files_read` returns: 64 KiB.
    static let maximumReadBytes = 64 * 1024
    /// The most entries `files_list` returns.
    static let maximumEntries = 500

    static let annotations = ToolAnnotations(readOnlyHint: true, idempotentHint: true, openWorldHint: false)

    static func register(on server: MCPServer, confinement: RootConfinement) async throws {
        let rootList = confinement.roots.joined(separator: ", ")
        try await server.register(
            name: "files_list",
            title: "List files",
            description: "Lists a directory under the allowed roots (\(rootList)): names, kinds and sizes. "
                + "Paths are relative to the first root, or absolute under a root.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "path": [
                        "type": "string", "description": "The directory to list (default: the first root).", "maxLength": 4096,
                    ]
                ],
                "additionalProperties": false,
            ],
            annotations: annotations
        ) { arguments, _ in
            let path = arguments["path"]?.stringValue ?? "."
            do {
                let entries = try confinement.listDirectory(path)
                return .text(render(entries, path: path))
            } catch let error as ConfinementError {
                return .error("Cannot list \"\(path)\": \(error.detail).")
            }
        }

        try await server.register(
            name: "files_read",
            title: "Read a text file",
            description: "Reads a UTF-8 text file under the allowed roots (\(rootList)), at most 64 KiB. "
                + "Paths are relative to the first root, or absolute under a root.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "path": ["type": "string", "description": "The file to read.", "minLength": 1, "maxLength": 4096]
                ],
                "required": ["path"],
                "additionalProperties": false,
            ],
            annotations: annotations
        ) { arguments, _ in
            let path = arguments["path"]?.stringValue ?? ""
            do {
                return try read(path, confinement: confinement)
            } catch let error as ConfinementError {
                return .error("Cannot read \"\(path)\": \(error.detail).")
            }
        }
    }

    /// One line per entry: directories end with `/`, files show their size, links are marked.
    static func render(_ entries: [ConfinedDirectoryEntry], path: String) -> String {
        guard !entries.isEmpty else { return "(\(path) is empty)" }
        var lines: [String] = []
        for entry in entries.prefix(maximumEntries) {
            switch entry.kind {
            case .directory: lines.append("\(entry.name)/")
            case .file: lines.append("\(entry.name) (\(entry.size ?? 0) bytes)")
            case .symbolicLink: lines.append("\(entry.name) (symbolic link, not followed)")
            case .other: lines.append("\(entry.name) (not a file or directory)")
            }
        }
        if entries.count > maximumEntries {
            lines.append("…[listing cut: showing \(maximumEntries) of \(entries.count) entries]")
        }
        return lines.joined(separator: "\n")
    }

    /// The text of a file, cut to ``maximumReadBytes`` at a character boundary with a note.
    static func read(_ path: String, confinement: RootConfinement) throws -> CallToolResult {
        let contents = try confinement.readFile(path, maximumBytes: maximumReadBytes)
        var bytes = contents.bytes[...]
        if contents.isTruncated {
            // Do not split a character: drop a last sequence that the cut left incomplete.
            var lead = bytes.endIndex
            while lead > bytes.startIndex, bytes.endIndex - lead < 4, bytes[lead - 1] & 0xC0 == 0x80 {
                lead -= 1
            }
            if lead > bytes.startIndex {
                let first = bytes[lead - 1]
                let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
                if bytes.endIndex - (lead - 1) < length { bytes = bytes[..<(lead - 1)] }
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes), !bytes.contains(0) else {
            return .error("\"\(path)\" is not a UTF-8 text file; files_read returns text only.")
        }
        guard contents.isTruncated else { return .text(text) }
        return .text(text + "\n…[file cut: showing the first \(bytes.count) of \(contents.fileSize) bytes]")
    }
}
