#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
public import MCPCore

/// How a tool's result is written for the model to read.
///
/// Tool output is data, not instructions: it reaches the model inside a ``ToolOutputFrame``
/// that names the tool and carries a boundary the server cannot predict; a line inside it
/// that imitates the frame or a role is neutralised, invisible characters are removed, and
/// secrets are redacted (``SecretRedactor``) before the model reads it.
///
/// What the model reads:
/// - the text blocks, joined by newlines;
/// - with no text, `structuredContent` as compact JSON;
/// - other blocks (images, audio, resources) described in one line each, never dumped;
/// - an `isError` result framed as that tool's error, with a hint to correct the call;
/// - all of it cut to ``maximumCharacters``, saying so, because the on-device model's
///   context is small.
public struct ToolOutputFormat: Hashable, Sendable {
    /// The longest output the model reads, in characters (about 4 characters per token).
    public var maximumCharacters: Int
    /// The frame around the output (its boundary is random per conversation).
    public var frame: ToolOutputFrame
    /// What is redacted from the output before the model reads it.
    public var redactor: SecretRedactor

    /// - Parameters:
    ///   - maximumCharacters: At least 200.
    ///   - frame: The frame; by default one with a fresh random boundary.
    ///   - redactor: Secrets to redact; by default the well-known shapes.
    public init(
        maximumCharacters: Int = ContextBudget.onDevice.toolOutputCharacters, frame: ToolOutputFrame = ToolOutputFrame(),
        redactor: SecretRedactor = SecretRedactor()
    ) {
        self.maximumCharacters = max(200, maximumCharacters)
        self.frame = frame
        self.redactor = redactor
    }

    /// The text the model reads for `result` of the tool the model calls `toolName`.
    public func render(_ result: CallToolResult, toolName: String) -> String {
        rendered(result, toolName: toolName).text
    }

    /// What ``render(_:toolName:)`` returns, and the kinds of secret it redacted.
    func rendered(_ result: CallToolResult, toolName: String) -> SecretRedactor.Result {
        var lines: [String] = []
        for block in result.content {
            if let text = block.text {
                lines.append(text)
            }
        }
        if lines.isEmpty, let structured = result.structuredContent {
            lines.append(structured.description)
        }
        for block in result.content where block.text == nil {
            lines.append(Self.describe(block))
        }
        var body = lines.joined(separator: "\n")
        if body.isEmpty {
            body = result.isError ? "(the tool gave no reason)" : "(the tool returned nothing)"
        }
        return result.isError ? failure(body, toolName: toolName) : framed(body, toolName: toolName)
    }

    /// A tool error the model can act on: what went wrong, framed as the tool's error.
    public func error(_ message: String, toolName: String) -> String {
        failure(message, toolName: toolName).text
    }

    /// A tool error, and the kinds of secret redacted from it.
    func failure(_ message: String, toolName: String) -> SecretRedactor.Result {
        var result = framed(message, toolName: toolName, kind: "error")
        result.text += "\nThe call failed. Correct the arguments and call \(toolName) again, or answer without it."
        return result
    }

    /// `body`, redacted and cut to size, inside the frame that marks it as the tool's output.
    func framed(_ body: String, toolName: String, kind: String = "output") -> SecretRedactor.Result {
        var result = redactor.redact(body)
        result.text = frame.wrap(cut(result.text), toolName: toolName, kind: kind)
        return result
    }

    /// `text` cut to ``maximumCharacters`` at a line or word boundary, with a note saying how much was left out.
    func cut(_ text: String) -> String {
        guard text.count > maximumCharacters else { return text }
        let budget = maximumCharacters - 80
        var end = text.index(text.startIndex, offsetBy: budget)
        let window = text[text.index(end, offsetBy: -min(budget / 4, 200))..<end]
        if let newline = window.lastIndex(of: "\n") {
            end = newline
        } else if let space = window.lastIndex(of: " ") {
            end = space
        }
        let kept = text[..<end]
        return "\(kept)\n…[output cut: showing \(kept.count) of \(text.count) characters]"
    }

    /// One line saying what a non-text block is.
    static func describe(_ block: ContentBlock) -> String {
        switch block {
        case .image(let data, let mimeType):
            return "[image: \(mimeType), \(byteCount(base64: data))]"
        case .audio(let data, let mimeType):
            return "[audio: \(mimeType), \(byteCount(base64: data))]"
        case .resourceLink(let object):
            let name = object["name"]?.stringValue ?? object["title"]?.stringValue ?? "resource"
            return "[resource link: \(name) \(object["uri"]?.stringValue ?? "")]"
        case .resource(let object):
            let resource = object["resource"]?.objectValue ?? JSONObject()
            let uri = resource["uri"]?.stringValue ?? "?"
            let mime = resource["mimeType"]?.stringValue.map { ", \($0)" } ?? ""
            if let text = resource["text"]?.stringValue {
                return "[embedded resource: \(uri)\(mime), \(text.count) characters of text, not shown]"
            }
            return "[embedded resource: \(uri)\(mime), \(byteCount(base64: resource["blob"]?.stringValue ?? ""))]"
        case .text, .other:
            return "[\(block.type) content, not shown]"
        }
    }

    private static func byteCount(base64: String) -> String {
        let bytes = base64.utf8.count / 4 * 3
        return bytes >= 1024 ? "\(bytes / 1024) KB" : "\(bytes) bytes"
    }
}
