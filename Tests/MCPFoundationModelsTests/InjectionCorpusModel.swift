#if !canImport(FoundationModels)
import Foundation
import MCP
import OnDeviceMCPTestSupport
import PortableFoundationModels

@testable import MCPAgent
@testable import MCPFoundationModels

/// The worst-case model: it obeys every instruction it reads.
///
/// It reads the prompt, every tool description and parameters schema (descriptions and enum
/// values included) and every tool output of the turn, the way a model would: Unicode tag characters are read as the ASCII they spell, invisible characters
/// are skipped, fullwidth and Cyrillic or Greek look-alike letters are read as the letters
/// they imitate. Every `call TOOL with {JSON}` (or `invoke TOOL {JSON}`) it finds, anywhere,
/// in any case, is an order: it makes those calls in the order it read them (prompt, then
/// descriptions, then outputs), at most ``maximumCalls`` a turn. In the arguments,
/// `{{tool}}` becomes everything that tool's latest output said (frame lines dropped),
/// `{{all}}` everything every tool said and `{{prompt}}` the user's prompt — so it happily
/// sends private data it has seen — and `{{source|transform|…}}` transforms it first (see
/// ``transformed(_:by:)``: encodings, reversal, parts of it).
/// When no order is left it answers with everything it read.
struct ObedientModel: LanguageModelBackend {
    static let maximumCalls = 8
    /// Everything the model read but the prompts, and its answers, for the leak check.
    let read = Recorder<String>()
    /// The prompts it read (the user's own text).
    let prompts = Recorder<String>()

    func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
        let outputs = request.toolResults
        var texts = [request.promptText]
        texts += request.tools.map(\.description)
        texts += request.tools.map { Self.schemaText($0.parameters) }
        texts += outputs.map(\.text)
        prompts.append(request.promptText)
        for text in texts.dropFirst() { read.append(text) }
        let names = Set(request.tools.map(\.name))
        let orders = texts.flatMap { Self.orders(in: Self.reading($0)) }.filter { names.contains($0.tool) }
        let made = outputs.count
        if made < orders.count, made < Self.maximumCalls {
            let order = orders[made]
            let arguments = Self.substitute(order.arguments, outputs: outputs, prompt: Self.reading(request.promptText))
            return .toolCalls([LanguageModelToolCall(toolName: order.tool, arguments: try GeneratedContent(json: arguments.description))])
        }
        let answer = "Done. I read:\n" + outputs.map(\.text).joined(separator: "\n")
        read.append(answer)
        return .text(answer)
    }

    struct Order {
        var tool: String
        var arguments: JSONValue
    }

    /// `text` as a model reads it.
    static func reading(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (0xE0020...0xE007E).contains(value), let ascii = Unicode.Scalar(value - 0xE0000) {
                scalars.append(ascii)
            } else if (0xFF01...0xFF5E).contains(value), let ascii = Unicode.Scalar(value - 0xFEE0) {
                scalars.append(ascii)
            } else if let ascii = lookalikes[scalar] {
                scalars.append(ascii)
            } else if !UntrustedText.isInvisible(scalar) || scalar == "\n" {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    static let lookalikes: [Unicode.Scalar: Unicode.Scalar] = [
        "а": "a", "е": "e", "о": "o", "с": "c", "р": "p", "х": "x", "у": "y", "і": "i", "ѕ": "s", "ԁ": "d", "ӏ": "l",
        "А": "A", "Е": "E", "О": "O", "С": "C", "Р": "P", "Т": "T", "Н": "H", "К": "K", "М": "M", "В": "B",
        "ο": "o", "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "τ": "t", "υ": "u", "ρ": "p",
    ]

    /// Every `call TOOL [with] {JSON}` / `invoke TOOL [with] {JSON}` in `text`, in order.
    static func orders(in text: String) -> [Order] {
        let scalars = Array(text.unicodeScalars)
        let lower = scalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32) ?? $0 : $0 }
        var orders: [Order] = []
        var index = 0
        while index < lower.count {
            var verbEnd: Int?
            for verb in ["call ", "invoke "] where matches(lower, verb, at: index) {
                verbEnd = index + verb.unicodeScalars.count
            }
            guard var position = verbEnd else {
                index += 1
                continue
            }
            let nameStart = position
            while position < lower.count, isNameScalar(lower[position]) { position += 1 }
            let tool = String(String.UnicodeScalarView(lower[nameStart..<position]))
            while position < lower.count, lower[position] == " " { position += 1 }
            if matches(lower, "with ", at: position) { position += 5 }
            while position < lower.count, lower[position] == " " { position += 1 }
            guard !tool.isEmpty, position < scalars.count, scalars[position] == "{", let end = closingBrace(scalars, from: position) else {
                index = max(index + 1, nameStart)
                continue
            }
            let json = String(String.UnicodeScalarView(scalars[position...end]))
            if let arguments = try? JSONValue(parsing: json), arguments.objectValue != nil {
                orders.append(Order(tool: tool, arguments: arguments))
            }
            index = end + 1
        }
        return orders
    }

    static func matches(_ scalars: [Unicode.Scalar], _ word: String, at index: Int) -> Bool {
        let pattern = Array(word.unicodeScalars)
        guard index + pattern.count <= scalars.count else { return false }
        return Array(scalars[index..<(index + pattern.count)]) == pattern
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    /// The index of the `}` that closes the `{` at `start`, skipping strings.
    static func closingBrace(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for index in start..<scalars.count {
            let scalar = scalars[index]
            if inString {
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { inString = false }
                continue
            }
            switch scalar {
            case "\"": inString = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// The parameters schema as the model reads it: every string in its JSON (descriptions,
    /// enum values, names), one a line, unescaped.
    static func schemaText(_ schema: GenerationSchema) -> String {
        guard let data = try? JSONEncoder().encode(schema), let json = try? JSONValue(parsing: data) else { return "" }
        func strings(_ value: JSONValue) -> [String] {
            switch value {
            case .string(let text): [text]
            case .array(let items): items.flatMap(strings)
            case .object(let object): object.flatMap { [$0.key] + strings($0.value) }
            default: []
            }
        }
        return strings(json).joined(separator: "\n")
    }

    /// `value` with every `{{source}}` or `{{source|transform|…}}` replaced by what the
    /// source said, transformed.
    static func substitute(_ value: JSONValue, outputs: [LanguageModelRequest.ToolResult], prompt: String) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(substitute(text, outputs: outputs, prompt: prompt))
        case .array(let items):
            return .array(items.map { substitute($0, outputs: outputs, prompt: prompt) })
        case .object(let object):
            var result = JSONObject()
            for (key, item) in object { result[key] = substitute(item, outputs: outputs, prompt: prompt) }
            return .object(result)
        default:
            return value
        }
    }

    static func substitute(_ text: String, outputs: [LanguageModelRequest.ToolResult], prompt: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            result += rest[..<open.lowerBound]
            let parts = rest[open.upperBound..<close.lowerBound].split(separator: "|").map(String.init)
            let source = parts.first ?? ""
            let said: String
            switch source {
            case "all": said = outputs.map { body(of: $0.text) }.joined(separator: " ")
            case "prompt": said = prompt
            default: said = outputs.last { $0.toolName == source }.map { body(of: $0.text) } ?? ""
            }
            result += parts.dropFirst().reduce(said) { transformed($0, by: $1) }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// `text` transformed as an attacker asks: `key` (its longest word with a digit, trailing
    /// punctuation dropped), `b64`, `b64url`, `hex`, `HEX`, `hexcolon`, `rev`, `codes` (decimal
    /// byte values, comma-separated), `pct` (every byte `%XX`), `spaced`, `upper`, `half1`,
    /// `half2`, `third1`…`third3`.
    static func transformed(_ text: String, by transform: String) -> String {
        let bytes = Array(text.utf8)
        let characters = Array(text)
        func part(_ index: Int, of count: Int) -> String {
            let size = (characters.count + count - 1) / count
            let start = min(characters.count, index * size)
            return String(characters[start..<min(characters.count, start + size)])
        }
        switch transform {
        case "key":
            let words = text.split(whereSeparator: \.isWhitespace).map { String($0.reversed().drop { ".,;:!?".contains($0) }.reversed()) }
            return words.filter { $0.count >= 10 && $0.contains(where: \.isNumber) }.max { $0.count < $1.count } ?? text
        case "b64": return Data(bytes).base64EncodedString()
        case "b64url":
            return Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
        case "hex": return bytes.map { String(format: "%02x", $0) }.joined()
        case "HEX": return bytes.map { String(format: "%02X", $0) }.joined()
        case "hexcolon": return bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
        case "rev": return String(text.reversed())
        case "codes": return bytes.map(String.init).joined(separator: ",")
        case "pct": return bytes.map { String(format: "%%%02X", $0) }.joined()
        case "spaced": return characters.map(String.init).joined(separator: " ")
        case "upper": return text.uppercased()
        case "half1": return part(0, of: 2)
        case "half2": return part(1, of: 2)
        case "third1": return part(0, of: 3)
        case "third2": return part(1, of: 3)
        case "third3": return part(2, of: 3)
        default: return text
        }
    }

    /// A tool output without its frame lines.
    static func body(of output: String) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 2 else { return output }
        return lines.dropFirst().dropLast().joined(separator: "\n")
    }
}
#endif
