internal import MCP
internal import MCPCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `notes_add`, `notes_search`, `notes_list` and `notes_delete`, over a ``NotesStore``.
///
/// The two tools that change the store are ``MCP/MCPTool/Concurrency-swift.enum/serialized``:
/// their calls run one at a time, in arrival order, so a burst of adds and deletes is applied
/// in the order the client sent it and never interleaves inside one change, whatever the
/// store's actor does between suspension points. The two readers need not be: each reads one
/// snapshot of the store's actor, and reads do not change anything.
enum NotesTools {
    /// How many notes a search or a listing returns when no `limit` is given.
    static let defaultLimit = 20

    static let noteSchema: JSONValue = [
        "type": "object",
        "properties": [
            "id": ["type": "string"],
            "title": ["type": "string"],
            "body": ["type": "string"],
            "createdAt": ["type": "string", "description": "UTC, ISO 8601"],
        ],
        "required": ["id", "title", "body", "createdAt"],
        "additionalProperties": false,
    ]

    static let limitSchema: JSONValue = [
        "type": "integer",
        "description": .string("The most notes to return (default \(defaultLimit))."),
        "minimum": 1,
        "maximum": 100,
    ]

    static let listOutputSchema: JSONValue = [
        "type": "object",
        "properties": [
            "notes": ["type": "array", "items": noteSchema, "description": "Newest first."],
            "total": ["type": "integer", "description": "How many notes matched, before the limit."],
        ],
        "required": ["notes", "total"],
        "additionalProperties": false,
    ]

    static func register(on server: MCPServer, store: NotesStore) async throws {
        try await server.register(
            name: "notes_add",
            title: "Add a note",
            description: "Saves a new note and returns it with its id.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "title": ["type": "string", "description": "A short title.", "minLength": 1, "maxLength": 200],
                    "body": ["type": "string", "description": "The note's text.", "maxLength": 100_000],
                ],
                "required": ["title", "body"],
                "additionalProperties": false,
            ],
            outputSchema: noteSchema,
            annotations: ToolAnnotations(readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false),
            concurrency: .serialized
        ) { arguments, _ in
            let note = try await store.add(title: arguments["title"]?.stringValue ?? "", body: arguments["body"]?.stringValue ?? "")
            return CallToolResult(content: [.text("Added note \(note.id): \(note.title)")], structuredContent: note.json)
        }

        try await server.register(
            name: "notes_search",
            title: "Search notes",
            description: "Finds notes whose title or body contains the query (ignoring case), newest first.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "query": ["type": "string", "description": "The text to look for.", "minLength": 1, "maxLength": 200],
                    "limit": limitSchema,
                ],
                "required": ["query"],
                "additionalProperties": false,
            ],
            outputSchema: listOutputSchema,
            annotations: ToolAnnotations(readOnlyHint: true, openWorldHint: false)
        ) { arguments, _ in
            let query = arguments["query"]?.stringValue ?? ""
            let matches = await store.search(query)
            let limit = arguments["limit"]?.intValue ?? defaultLimit
            return listing(matches, limit: limit, heading: "matching \"\(query)\"")
        }

        try await server.register(
            name: "notes_list",
            title: "List notes",
            description: "Lists the notes, newest first.",
            inputSchema: [
                "type": "object",
                "properties": ["limit": limitSchema],
                "additionalProperties": false,
            ],
            outputSchema: listOutputSchema,
            annotations: ToolAnnotations(readOnlyHint: true, openWorldHint: false)
        ) { arguments, _ in
            let notes = await store.list()
            return listing(notes, limit: arguments["limit"]?.intValue ?? defaultLimit, heading: nil)
        }

        try await server.register(
            name: "notes_delete",
            title: "Delete a note",
            description: "Deletes the note with the given id.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "id": [
                        "type": "string", "description": "The note's id, as notes_add, notes_list or notes_search return it.",
                        "minLength": 1, "maxLength": 100,
                    ]
                ],
                "required": ["id"],
                "additionalProperties": false,
            ],
            outputSchema: [
                "type": "object", "properties": ["deleted": noteSchema], "required": ["deleted"], "additionalProperties": false,
            ],
            annotations: ToolAnnotations(readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false),
            concurrency: .serialized
        ) { arguments, _ in
            let id = arguments["id"]?.stringValue ?? ""
            guard let note = try await store.delete(id: id) else {
                return .error("no note with id \(id)")
            }
            return CallToolResult(content: [.text("Deleted note \(note.id): \(note.title)")], structuredContent: ["deleted": note.json])
        }
    }

    /// A result listing `notes` (newest first): text for reading, the notes in `structuredContent`.
    static func listing(_ notes: [Note], limit: Int, heading: String?) -> CallToolResult {
        let shown = notes.prefix(limit)
        let what = heading.map { " \($0)" } ?? ""
        var text: String
        if notes.isEmpty {
            text = "No notes\(what)."
        } else if shown.count < notes.count {
            text = "\(notes.count) notes\(what); the newest \(shown.count):"
        } else {
            text = notes.count == 1 ? "1 note\(what):" : "\(notes.count) notes\(what), newest first:"
        }
        for note in shown {
            text += "\n- \(note.id) \(note.title) (\(note.createdAt))"
            let excerpt = excerpt(of: note.body)
            if !excerpt.isEmpty { text += "\n  \(excerpt)" }
        }
        let structured: JSONValue = ["notes": .array(shown.map(\.json)), "total": .int(notes.count)]
        return CallToolResult(content: [.text(text)], structuredContent: structured)
    }

    /// The body on one line, cut to 200 characters.
    static func excerpt(of body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
