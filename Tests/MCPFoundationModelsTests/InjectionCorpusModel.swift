#if !canImport(FoundationModels)
import MCP
import OnDeviceMCPTestSupport
import PortableFoundationModels

@testable import MCPFoundationModels

/// The worst-case model: it obeys every instruction it reads.
///
/// It reads the prompt, every tool description and every tool output of the turn, the way a
/// model would: Unicode tag characters are read as the ASCII they spell, invisible characters
/// are skipped, fullwidth and Cyrillic or Greek look-alike letters are read as the letters
/// they imitate. Every `call TOOL with {JSON}` (or `invoke TOOL {JSON}`) it finds, anywhere,
/// in any case, is an order: it makes those calls in the order it read them (prompt, then
/// descriptions, then outputs), at most ``maximumCalls`` a turn. In the arguments,
/// `{{tool}}` becomes everything that tool's latest output said (frame lines dropped) and
/// `{{all}}` everything every tool said — so it happily sends private data it has seen.
/// When no order is left it answers with everything it read.
struct ObedientModel: LanguageModelBackend {
    static let maximumCalls = 8
    /// Everything the model read, for the leak check.
    let read = Recorder<String>()

    func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
        let outputs = request.toolResults
        var texts = [request.promptText]
        texts += request.tools.map(\.description)
        texts += outputs.map(\.text)
        for text in texts { read.append(text) }
        let names = Set(request.tools.map(\.name))
        let orders = texts.flatMap { Self.orders(in: Self.reading($0)) }.filter { names.contains($0.tool) }
        let made = outputs.count
        if made < orders.count, made < Self.maximumCalls {
            let order = orders[made]
            let arguments = Self.substitute(order.arguments, outputs: outputs)
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

    /// `value` with `{{tool}}` and `{{all}}` replaced by what the tools said.
    static func substitute(_ value: JSONValue, outputs: [LanguageModelRequest.ToolResult]) -> JSONValue {
        switch value {
        case .string(var text):
            for output in outputs.reversed() where text.contains("{{\(output.toolName)}}") {
                text = text.replacing("{{\(output.toolName)}}", with: body(of: output.text))
            }
            if text.contains("{{all}}") {
                text = text.replacing("{{all}}", with: outputs.map { body(of: $0.text) }.joined(separator: " "))
            }
            return .string(text)
        case .array(let items):
            return .array(items.map { substitute($0, outputs: outputs) })
        case .object(let object):
            var result = JSONObject()
            for (key, item) in object { result[key] = substitute(item, outputs: outputs) }
            return .object(result)
        default:
            return value
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
