package import MCPCore

/// How `ondevice-mcp` shows tools and results to people.
package enum Formatting {
    /// Pretty JSON text (2-space indent); a value with a non-finite number falls back to compact text.
    /// `value` as compact JSON on one line.
    static func compactJSON(_ value: JSONValue) -> String {
        (try? JSONWriter().string(from: value)) ?? value.description
    }

    /// A duration in milliseconds, as a number.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// `0.4 ms`, `12 ms`, `1.5 s`.
    static func duration(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        if milliseconds < 10 { return "\((milliseconds * 10).rounded() / 10) ms" }
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        return "\((milliseconds / 100).rounded() / 10) s"
    }

    package static func prettyJSON(_ value: JSONValue) -> String {
        (try? JSONWriter(prettyPrints: true).string(from: value)) ?? value.description
    }

    /// One block per tool, separated by blank lines: the name (and title, and hints), the
    /// description, and a one-line summary of the arguments.
    package static func describe(_ tools: [ToolDefinition]) -> String {
        guard !tools.isEmpty else { return "(the server offers no tools)\n" }
        return tools.map(describe).joined(separator: "\n")
    }

    /// One tool's block, ending with a newline.
    package static func describe(_ tool: ToolDefinition) -> String {
        var heading = tool.name
        if let title = tool.title ?? tool.annotations?.title, title != tool.name { heading += " — \(title)" }
        if let annotations = tool.annotations {
            var hints: [String] = []
            if annotations.readOnlyHint == true { hints.append("read-only") }
            if annotations.readOnlyHint != true, annotations.destructiveHint == true { hints.append("destructive") }
            if annotations.openWorldHint == true { hints.append("open world") }
            if !hints.isEmpty { heading += " [\(hints.joined(separator: ", "))]" }
        }
        var text = heading + "\n"
        if let description = tool.description, !description.isEmpty {
            for line in description.split(separator: "\n", omittingEmptySubsequences: false) {
                text += "  \(line)\n"
            }
        }
        text += "  arguments: \(argumentSummary(tool.inputSchema))\n"
        return text
    }

    /// `query: string (required), limit: integer`; `none` for a schema without properties.
    package static func argumentSummary(_ schema: JSONValue) -> String {
        guard case .object(let properties)? = schema["properties"], !properties.isEmpty else {
            return schema["additionalProperties"] == false || schema["properties"] != nil ? "none" : "any"
        }
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        return properties.map { name, property in
            "\(name): \(typeSummary(property))" + (required.contains(name) ? " (required)" : "")
        }.joined(separator: ", ")
    }

    /// A short description of a property's type: `string`, `integer|null`, `array of string`,
    /// `one of "a", "b"`.
    static func typeSummary(_ schema: JSONValue) -> String {
        if case .array(let values)? = schema["enum"] {
            return "one of " + values.map(\.description).joined(separator: ", ")
        }
        if let constant = schema["const"] {
            return "const \(constant.description)"
        }
        var type: String
        switch schema["type"] {
        case .string(let name)?: type = name
        case .array(let names)?: type = names.compactMap(\.stringValue).joined(separator: "|")
        default:
            if case .array(let options)? = schema["anyOf"] ?? schema["oneOf"] {
                return options.map(typeSummary).joined(separator: "|")
            }
            type = "any"
        }
        if type == "array", let items = schema["items"], items.objectValue != nil {
            type += " of \(typeSummary(items))"
        }
        return type
    }

    /// A call result for people: text blocks as text; `structuredContent` as pretty JSON
    /// when there is no text; other blocks in a bracketed line each. Ends with a newline
    /// unless empty.
    package static func describe(_ result: CallToolResult) -> String {
        var lines: [String] = []
        let hasText = result.content.contains { $0.text != nil }
        if !hasText, let structured = result.structuredContent {
            lines.append(prettyJSON(structured))
        }
        for block in result.content {
            if let text = block.text {
                lines.append(text)
                continue
            }
            lines.append(describeBlock(block))
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// A one-line description of a content block that is not text.
    static func describeBlock(_ block: ContentBlock) -> String {
        switch block {
        case .text(let text):
            return text
        case .image(let data, let mimeType):
            return "[image: \(mimeType), \(data.utf8.count * 3 / 4) bytes]"
        case .audio(let data, let mimeType):
            return "[audio: \(mimeType), \(data.utf8.count * 3 / 4) bytes]"
        case .resourceLink(let object):
            let name = object["name"]?.stringValue.map { "\($0) " } ?? ""
            return "[resource link: \(name)\(object["uri"]?.stringValue ?? "?")]"
        case .resource(let object):
            let uri = object["resource"]?["uri"]?.stringValue ?? "?"
            let mime = object["resource"]?["mimeType"]?.stringValue.map { ", \($0)" } ?? ""
            return "[resource: \(uri)\(mime)]"
        case .other(let object):
            return "[\(object["type"]?.stringValue ?? "unknown") block]"
        }
    }
}
