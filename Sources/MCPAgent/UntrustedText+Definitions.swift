public import MCPCore

// Screening a tool's whole definition: every string the model may read.

extension UntrustedText {
    /// The kind of finding for invisible or control characters in a definition's text.
    public static let invisibleCharacters = "invisible characters"

    /// Every finding in `tool`'s definition: its name, title, description and annotations'
    /// title, and every string of its input schema — descriptions and titles, property names,
    /// `enum` and `const` values, defaults and examples — read as
    /// ``instructionFindings(in:otherTools:)`` reads a description; invisible characters in
    /// any of them are a finding too.
    ///
    /// - Parameter otherTools: The names of other servers' tools; a mention of one is reported.
    public static func definitionFindings(of tool: ToolDefinition, otherTools: Set<String> = []) -> [DefinitionFinding] {
        var found: [DefinitionFinding] = []
        func screen(_ text: String, field: String, isValue: Bool, words: Bool = false) {
            if invisibleCount(in: text) > 0 {
                found.append(
                    DefinitionFinding(
                        field: field, finding: Finding(kind: invisibleCharacters, phrase: "\(invisibleCount(in: text))"), isValue: isValue))
            }
            // Names are read as words: `ignore_previous_instructions`.
            let readable = words ? String(text.map { $0 == "_" || $0 == "-" || $0 == "." ? " " : $0 }) : text
            for finding in instructionFindings(in: readable, otherTools: otherTools) {
                found.append(DefinitionFinding(field: field, finding: finding, isValue: isValue))
            }
        }
        screen(tool.name, field: "name", isValue: true, words: true)
        if let title = tool.title { screen(title, field: "title", isValue: false) }
        if let description = tool.description { screen(description, field: "description", isValue: false) }
        if let title = tool.annotations?.title { screen(title, field: "annotations/title", isValue: false) }
        walk(tool.inputSchema, path: "inputSchema", screen: screen)
        return found
    }

    /// Calls `screen` for every string of `schema` the model may read, with its JSON Pointer.
    private static func walk(_ schema: JSONValue, path: String, screen: (String, String, Bool, Bool) -> Void) {
        func pointer(_ key: String) -> String {
            path + "/" + key.replacing("~", with: "~0").replacing("/", with: "~1")
        }
        func values(_ value: JSONValue, at path: String) {
            switch value {
            case .string(let text): screen(text, path, true, false)
            case .array(let items): for (index, item) in items.enumerated() { values(item, at: "\(path)/\(index)") }
            case .object(let object): for (key, item) in object { values(item, at: path + "/" + key) }
            default: break
            }
        }
        switch schema {
        case .array(let items):
            for (index, item) in items.enumerated() { walk(item, path: "\(path)/\(index)", screen: screen) }
        case .object(let object):
            for (key, value) in object {
                switch key {
                case "description", "title", "$comment":
                    if case .string(let text) = value { screen(text, pointer(key), false, false) }
                case "enum", "const", "default", "examples", "example":
                    values(value, at: pointer(key))
                case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
                    guard case .object(let members) = value else { continue }
                    for (name, member) in members {
                        let memberPath = pointer(key) + "/" + name.replacing("~", with: "~0").replacing("/", with: "~1")
                        if key == "properties" { screen(name, memberPath, true, true) }
                        walk(member, path: memberPath, screen: screen)
                    }
                default:
                    walk(value, path: pointer(key), screen: screen)
                }
            }
        default:
            return
        }
    }

    /// `schema` (found at `path`) without the `description`, `title` and `$comment` strings
    /// whose pointers (as ``definitionFindings(of:otherTools:)`` names them) are in `fields`.
    package static func removingText(at fields: Set<String>, from schema: JSONValue, path: String) -> JSONValue {
        func pointer(_ key: String) -> String {
            path + "/" + key.replacing("~", with: "~0").replacing("/", with: "~1")
        }
        switch schema {
        case .array(let items):
            return .array(items.enumerated().map { removingText(at: fields, from: $0.element, path: "\(path)/\($0.offset)") })
        case .object(let object):
            var result = JSONObject()
            for (key, value) in object {
                switch key {
                case "description", "title", "$comment":
                    if fields.contains(pointer(key)) { continue }
                    result[key] = value
                case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
                    guard case .object(let members) = value else {
                        result[key] = value
                        continue
                    }
                    var kept = JSONObject()
                    for (name, member) in members {
                        let memberPath = pointer(key) + "/" + name.replacing("~", with: "~0").replacing("/", with: "~1")
                        kept[name] = removingText(at: fields, from: member, path: memberPath)
                    }
                    result[key] = .object(kept)
                case "enum", "const", "default", "examples", "example":
                    result[key] = value
                default:
                    result[key] = removingText(at: fields, from: value, path: pointer(key))
                }
            }
            return .object(result)
        default:
            return schema
        }
    }
}
