public import MCPCore

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// How a tool's result is written for the model to read.
///
/// Tool output is data, not instructions: it reaches the model inside a ``ToolOutputFrame``
/// that names the tool and carries a boundary the server cannot predict; invisible characters
/// are removed, then secrets are redacted (``SecretRedactor``), and a line that imitates the
/// frame, a role or a chat template's control token is neutralised before the model reads it.
///
/// What the model reads:
/// - the text blocks, joined by newlines;
/// - with no text, `structuredContent` as compact JSON;
/// - other blocks (images, audio, resources) described in one line each, never dumped;
/// - an `isError` result framed as that tool's error, with a hint to correct the call;
/// - all of it cut to ``maximumCharacters`` (or a smaller limit for one call, see
///   ``render(_:toolName:maximumCharacters:)``), because the on-device model's context is
///   small: the model reads the head and the tail of a longer output, each cut at a line or
///   a word, and between them a line saying how much was left out
///   (`…[output cut: 1200 of 3000 characters left out]…`).
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

    /// The text the model reads for `result`, its body cut to `maximumCharacters` for this
    /// call when that is less than ``maximumCharacters``.
    ///
    /// For fitting one output into what is left of the context. The limit applies to the
    /// body: the frame's lines and an error's hint come on top. A limit too small to show any
    /// of the output (under about 60 characters) leaves only the line saying it was cut.
    public func render(_ result: CallToolResult, toolName: String, maximumCharacters: Int) -> String {
        rendered(result, toolName: toolName, maximumCharacters: maximumCharacters).text
    }

    /// What ``render(_:toolName:maximumCharacters:)`` returns, and the kinds of secret it
    /// redacted; `maximumCharacters` is `nil` for the format's own limit.
    package func rendered(_ result: CallToolResult, toolName: String, maximumCharacters: Int? = nil) -> SecretRedactor.Result {
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
        let limit = bodyLimit(maximumCharacters)
        return result.isError ? failure(body, toolName: toolName, limit: limit) : framed(body, toolName: toolName, limit: limit)
    }

    /// The body's limit for a call: the smaller of ``maximumCharacters`` and `requested`.
    private func bodyLimit(_ requested: Int?) -> Int {
        min(maximumCharacters, max(0, requested ?? maximumCharacters))
    }

    /// A tool error the model can act on: what went wrong, framed as the tool's error.
    public func error(_ message: String, toolName: String) -> String {
        failure(message, toolName: toolName).text
    }

    /// A tool error, and the kinds of secret redacted from it; `limit` is the body's (by
    /// default ``maximumCharacters``).
    package func failure(_ message: String, toolName: String, limit: Int? = nil) -> SecretRedactor.Result {
        var result = framed(message, toolName: toolName, kind: "error", limit: limit)
        result.text += "\nThe call failed. Correct the arguments and call \(toolName) again, or answer without it."
        return result
    }

    /// `body`, redacted and cut to `limit` (by default ``maximumCharacters``), inside the
    /// frame that marks it as the tool's output.
    func framed(_ body: String, toolName: String, kind: String = "output", limit: Int? = nil) -> SecretRedactor.Result {
        // Cleaned first, then redacted: removing invisible characters after redaction could
        // rebuild a secret they broke up (the redactor finds such secrets too).
        var result = redactor.redact(frame.neutralisesImitations ? UntrustedText.cleaned(body) : body)
        result.text = frame.wrap(cut(result.text, limit: limit), toolName: toolName, kind: kind)
        return result
    }

    /// `text` cut to `limit` characters (by default ``maximumCharacters``): about two thirds
    /// from its head and one third from its tail, each cut at a line (else a word) boundary
    /// near the limit, and between them a line saying how much was left out.
    ///
    /// ```
    /// first lines…
    /// …[output cut: 2400 of 4000 characters left out]…
    /// …last lines
    /// ```
    ///
    /// The result, note included, is at most `limit` characters, unless `limit` is too small
    /// for any text beside the note: then the note alone is returned.
    func cut(_ text: String, limit: Int? = nil) -> String {
        let limit = limit ?? maximumCharacters
        let total = text.count
        guard total > limit else { return text }
        // The note is longest when everything is left out; its lines are reserved whole.
        let reserved = Self.cutNote(leftOut: total, of: total).count + 2
        let budget = limit - reserved
        guard budget >= Self.minimumCutText else { return Self.cutNote(leftOut: total, of: total) }
        let headBudget = budget * 2 / 3
        let tailBudget = budget - headBudget

        var headEnd = text.index(text.startIndex, offsetBy: headBudget)
        let headWindow = text[text.index(headEnd, offsetBy: -min(headBudget / 4, 200))..<headEnd]
        if let newline = headWindow.lastIndex(where: \.isNewline) {
            headEnd = newline
        } else if let space = headWindow.lastIndex(where: \.isWhitespace) {
            headEnd = space
        }
        var tailStart = text.index(text.endIndex, offsetBy: -tailBudget)
        let tailWindow = text[tailStart..<text.index(tailStart, offsetBy: min(tailBudget / 4, 200))]
        if let newline = tailWindow.firstIndex(where: \.isNewline) {
            tailStart = text.index(after: newline)
        } else if let space = tailWindow.firstIndex(where: \.isWhitespace) {
            tailStart = text.index(after: space)
        }
        let head = text[..<headEnd]
        let tail = text[tailStart...]
        return "\(head)\n\(Self.cutNote(leftOut: total - head.count - tail.count, of: total))\n\(tail)"
    }

    /// The fewest characters of output worth showing beside the note.
    private static let minimumCutText = 12

    /// The line between the head and the tail of a cut output.
    static func cutNote(leftOut: Int, of total: Int) -> String {
        "…[output cut: \(leftOut) of \(total) characters left out]…"
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
