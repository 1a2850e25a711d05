// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import Foundation
import JSONCore

/// A failure the server reported that an app handles the same way for every model: an
/// over-long request, a rate limit, a content filter.
///
/// Neutral: each of the model's front doors reports it in its own API's terms — the 27 executor
/// as `LanguageModelError`, the 26 backend as `LanguageModelSession.GenerationError` (or, for a
/// content filter, as the ``ChatCompletionsError/httpStatus`` it always was). Every other
/// failure is a ``ChatCompletionsError`` from the start.
enum ServerFailure: Error, Sendable {
    /// The request does not fit the model's context.
    case contextOverflow(Overflow)
    /// The server is limiting requests; `resetDate` is when it said to come back.
    case rateLimited(message: String, resetDate: Date?)
    /// The server's content filter stopped the request (an error status) or the answer (a
    /// finish reason of `content_filter`, `status` `nil`).
    case contentFiltered(message: String, status: Int?)

    /// What the server said about an over-long request.
    struct Overflow: Sendable {
        /// The server's message.
        var message: String
        /// The request's tokens and the context's size, as llama.cpp reports them
        /// (`n_prompt_tokens`, `n_ctx`); `nil` from servers that do not.
        var promptTokens: Int?
        var contextSize: Int?

        /// The tokens and the context's size, from llama.cpp's fields or else from the wording
        /// of OpenAI's and vLLM's messages ("maximum context length is 8192 tokens … resulted in
        /// 9000 tokens"); `nil` for each the server did not state.
        var stated: (tokens: Int?, contextSize: Int?) {
            let lowered = message.lowercased()
            let tokens = promptTokens ?? Self.number(after: ["resulted in ", "you requested ", "request has ", "contains "], in: lowered)
            let size =
                contextSize
                ?? Self.number(after: ["context length is ", "context size of ", "context window of ", "context size is "], in: lowered)
            return (tokens, size)
        }

        /// The first whole number right after one of `markers` in `text`.
        static func number(after markers: [String], in text: String) -> Int? {
            for marker in markers {
                guard let range = text.range(of: marker) else { continue }
                let digits = text[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
                if let value = Int(digits) { return value }
            }
            return nil
        }
    }

    /// The error of an error answer: a ``ServerFailure`` for the failures every model shares,
    /// otherwise a ``ChatCompletionsError``. `headers` are the response's (names lowercased;
    /// empty for an error that came inside a stream), read for `Retry-After`.
    static func classify(status: Int, body: [UInt8], headers: [String: String] = [:], now: Date = Date()) -> any Error {
        let value = try? JSONValue(parsing: body)
        let error = value?["error"]
        let message = error?["message"]?.stringValue ?? error?.stringValue ?? String(decoding: body.prefix(300), as: UTF8.self)
        let type = error?["type"]?.stringValue ?? error?["code"]?.stringValue ?? ""
        let lowered = (message + " " + type).lowercased()
        if lowered.contains("exceed_context_size") || lowered.contains("context length") || lowered.contains("context size")
            || lowered.contains("context_length_exceeded") || lowered.contains("maximum context")
        {
            return ServerFailure.contextOverflow(
                Overflow(message: message, promptTokens: error?["n_prompt_tokens"]?.intValue, contextSize: error?["n_ctx"]?.intValue))
        }
        switch status {
        case 401, 403:
            return ChatCompletionsError.make(
                .unauthorized, "the model server refused the credentials (HTTP \(status)): \(message)", status: status)
        case 404 where lowered.contains("model"):
            return ChatCompletionsError.make(
                .unknownModel, "the model server does not know the model (HTTP 404): \(message)", status: status)
        case 429:
            return ServerFailure.rateLimited(message: message, resetDate: resetDate(headers: headers, now: now))
        default:
            if lowered.contains("content_filter") || lowered.contains("content_policy") {
                return ServerFailure.contentFiltered(message: message, status: status)
            }
            return ChatCompletionsError.make(.httpStatus, "the model server answered HTTP \(status): \(message)", status: status)
        }
    }

    /// When a rate-limited client may try again: `retry-after-ms` (OpenAI's), or `Retry-After` in
    /// seconds or as an HTTP date; `nil` when the server did not say.
    static func resetDate(headers: [String: String], now: Date) -> Date? {
        if let text = headers["retry-after-ms"], let milliseconds = Double(text.trimmingCharacters(in: .whitespaces)), milliseconds >= 0 {
            return now.addingTimeInterval(milliseconds / 1000)
        }
        guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Double(text), seconds >= 0 { return now.addingTimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
