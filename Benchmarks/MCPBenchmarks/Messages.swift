import MCPCore

/// The MCP messages the JSON benchmarks read and write.
enum Messages {
    /// A small `tools/call` request, about 130 bytes.
    static let toolsCall =
        #"{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"notes_search","arguments":{"query":"trip to Lisbon","limit":5}}}"#

    /// A `tools/list` result with 50 tools, each with a typical input schema.
    static let toolsList: String = {
        var tools: [JSONValue] = []
        for index in 0..<50 {
            tools.append([
                "name": .string("tool_\(index)"),
                "title": .string("Tool number \(index)"),
                "description": .string("Does task \(index) on the user's data. Use it when the user asks about item \(index)."),
                "inputSchema": [
                    "type": "object",
                    "properties": [
                        "query": ["type": "string", "description": "What to look for"],
                        "limit": ["type": "integer", "minimum": 1, "maximum": 100],
                        "sort": ["type": "string", "enum": ["relevance", "date", "title"]],
                        "includeArchived": ["type": "boolean"],
                    ],
                    "required": ["query"],
                    "additionalProperties": false,
                ],
                "annotations": ["readOnlyHint": true, "openWorldHint": false],
            ])
        }
        let message: JSONValue = ["jsonrpc": "2.0", "id": 2, "result": ["tools": .array(tools), "nextCursor": nil]]
        return (try? message.jsonString()) ?? ""
    }()

    /// A `tools/call` result of about 100 KB: a text block and structured content.
    static let largeResult: String = {
        var records: [JSONValue] = []
        var index = 0
        var text = ""
        while text.utf8.count < 50_000 {
            text += "Note \(index): “Café” meeting at 10:30 — bring the \"blue\" folder.\n\tFollow up with Zoë.\n"
            index += 1
        }
        var size = 0
        while size < 48_000 {
            let record: JSONValue = [
                "id": .int(records.count),
                "title": .string("Entry \(records.count)"),
                "score": .double(Double(records.count) * 0.731),
                "tags": ["work", "travel"],
                "done": .bool(records.count % 2 == 0),
            ]
            size += ((try? record.jsonString()) ?? "").utf8.count
            records.append(record)
        }
        let message: JSONValue = [
            "jsonrpc": "2.0", "id": 3,
            "result": [
                "content": [["type": "text", "text": .string(text)]],
                "structuredContent": ["records": .array(records)],
                "isError": false,
            ],
        ]
        return (try? message.jsonString()) ?? ""
    }()
}
