// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Portable only: the one rendering of what a model reads, which every token count uses.

/// What a model reads, as pieces of text: the one rendering that every token count uses.
///
/// `SystemLanguageModel.tokenCount(for:)` and the session's context check both count these
/// pieces, so a count of the parts adds up to the count of the whole. The pieces are:
///
/// - instructions: their text (structured segments as JSON); none when the text is empty (a
///   session with tools and no instructions has an instructions entry with no text);
/// - a tool definition: `{"name":…,"description":…,"parameters":…}`, the parameters being the
///   tool's `GenerationSchema` encoded by `JSONEncoder` (keys sorted), the JSON a backend gives
///   its model (a tool whose `includesSchemaInInstructions` is `false` has no `parameters`);
/// - a prompt: its text; and when it has a response format, that schema's JSON as a piece of
///   its own (a response schema);
/// - a tool call: `{"name":…,"arguments":…}`, one piece per call;
/// - a tool output: its text;
/// - a response: its text (structured content as JSON);
/// - reasoning (27): its text.
///
/// Each piece costs `framingTokensPerPiece` tokens on top of its text, for the chat template's
/// framing (a role marker, an end-of-turn marker and separators, as ChatML-style templates have).
/// The count of a list of pieces is the sum of their counts, so counting the pieces of a request
/// one by one and summing gives exactly the count of the request.
enum TranscriptRendering {
    /// The tokens of chat-template framing around each piece.
    static let framingTokensPerPiece = 4

    /// One piece of what the model reads.
    struct Piece: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            case instructions, toolDefinition, prompt, responseSchema, toolCall, toolOutput, response, reasoning
        }

        var kind: Kind
        var text: String
    }

    // MARK: Pieces

    static func pieces(instructions text: String) -> [Piece] {
        text.isEmpty ? [] : [Piece(kind: .instructions, text: text)]
    }

    static func pieces(prompt text: String) -> [Piece] {
        [Piece(kind: .prompt, text: text)]
    }

    static func piece(responseSchema schema: GenerationSchema) -> Piece {
        Piece(kind: .responseSchema, text: json(schema))
    }

    static func piece(tool: LanguageModelToolDescription) -> Piece {
        piece(
            toolNamed: tool.name, description: tool.description,
            parameters: tool.includesSchemaInInstructions ? tool.parameters : nil)
    }

    static func piece(toolNamed name: String, description: String, parameters: GenerationSchema?) -> Piece {
        var text = #"{"name":"# + jsonString(name) + #","description":"# + jsonString(description)
        if let parameters { text += #","parameters":"# + json(parameters) }
        return Piece(kind: .toolDefinition, text: text + "}")
    }

    static func piece(toolCall call: Transcript.ToolCall) -> Piece {
        Piece(kind: .toolCall, text: #"{"name":"# + jsonString(call.toolName) + #","arguments":"# + call.arguments.jsonString + "}")
    }

    /// The piece of a response with these segments.
    static func piece(response segments: [Transcript.Segment]) -> Piece {
        Piece(kind: .response, text: segments.plainText)
    }

    /// The pieces of transcript entries, in order.
    static func pieces(entries: some Sequence<Transcript.Entry>) -> [Piece] {
        var pieces: [Piece] = []
        for entry in entries {
            switch entry {
            case .instructions(let instructions):
                pieces += Self.pieces(instructions: instructions.segments.plainText)
                pieces += instructions.toolDefinitions.map {
                    piece(toolNamed: $0.name, description: $0.description, parameters: $0.storedParameters)
                }
            case .prompt(let prompt):
                pieces += Self.pieces(prompt: prompt.segments.plainText)
                if let format = prompt.responseFormat { pieces.append(piece(responseSchema: format.schema)) }
            case .toolCalls(let calls):
                pieces += calls.map { piece(toolCall: $0) }
            case .toolOutput(let output):
                pieces.append(Piece(kind: .toolOutput, text: output.segments.plainText))
            case .response(let response):
                pieces.append(piece(response: response.segments))
            case .reasoning(let reasoning):
                pieces.append(Piece(kind: .reasoning, text: reasoning.segments.plainText))
            }
        }
        return pieces
    }

    /// The pieces of a request: its transcript, the tools the transcript's instructions do not
    /// already define, and the response schema when the prompt has no response format that
    /// carries it.
    static func pieces(request: LanguageModelRequest) -> [Piece] {
        var pieces = Self.pieces(entries: request.transcript)
        var defined: Set<String> = []
        for entry in request.transcript {
            if case .instructions(let instructions) = entry { defined.formUnion(instructions.toolDefinitions.map(\.name)) }
        }
        pieces += request.tools.filter { !defined.contains($0.name) }.map { piece(tool: $0) }
        if let schema = request.schema, request.prompt.responseFormat == nil {
            pieces.append(piece(responseSchema: schema))
        }
        return pieces
    }

    // MARK: Counting

    /// The tokens of `pieces`: each piece's text as `count` counts it, plus its framing.
    static func tokenCount(
        of pieces: [Piece], counting count: (String) async throws -> Int
    ) async throws -> Int {
        var total = 0
        for piece in pieces {
            total += try await count(piece.text) + framingTokensPerPiece
        }
        return total
    }

    // MARK: JSON

    /// The schema as `JSONEncoder` writes it, keys sorted and slashes unescaped; empty if it
    /// cannot be encoded.
    ///
    /// Sorted keys make the text, and so its count, the same on every run: `JSONEncoder` does
    /// not keep the order of keys everywhere, and the schema keeps its properties' order in
    /// `x-order`.
    static func json(_ schema: GenerationSchema) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(schema) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        GeneratedContent(kind: .string(text)).jsonString
    }
}
#endif
