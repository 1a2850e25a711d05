// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The transcript's JSON form: `{"type":"FoundationModels.Transcript","version":"1.1",…}`, with
// tool-call arguments as JSON strings, as Apple's. The 27 additions (reasoning entries,
// attachment segments, metadata, context options, the tool-calling mode) are optional keys, so
// a transcript without them encodes as before and older JSON still decodes.

extension Transcript {
    fileprivate struct Envelope: Codable {
        var type: String
        var version: String
        var transcript: Body
    }

    fileprivate struct Body: Codable {
        var entries: [EntryRecord]
    }

    fileprivate struct SegmentRecord: Codable {
        var type: String
        var id: String
        var text: String?
        var source: String?
        var content: String?
        var label: String?
        var data: Data?
        var contentType: String?
    }

    fileprivate struct ToolRecord: Codable {
        var name: String
        var description: String
        var parameters: GenerationSchema
    }

    fileprivate struct ToolCallRecord: Codable {
        var id: String
        var name: String
        var arguments: String
        var metadata: [String: String]?
    }

    fileprivate struct OptionsRecord: Codable {
        var sampling: String?
        var top: Int?
        var probabilityThreshold: Double?
        var seed: UInt64?
        var temperature: Double?
        var maximumResponseTokens: Int?
        var toolCallingMode: String?
    }

    fileprivate struct ContextRecord: Codable {
        var includeSchemaInPrompt: Bool?
        var reasoningLevel: String?
    }

    fileprivate struct FormatRecord: Codable {
        var name: String
        var schema: GenerationSchema
    }

    fileprivate struct EntryRecord: Codable {
        var role: String
        var id: String
        var contents: [SegmentRecord]?
        var tools: [ToolRecord]?
        var toolCalls: [ToolCallRecord]?
        var toolName: String?
        var assetIDs: [String]?
        var options: OptionsRecord?
        var responseFormat: FormatRecord?
        var contextOptions: ContextRecord?
        var metadata: [String: String]?
        var signature: Data?
    }

    public func encode(to encoder: any Encoder) throws {
        var records: [EntryRecord] = []
        for entry in entries {
            switch entry {
            case .instructions(let value):
                records.append(
                    EntryRecord(
                        role: "instructions", id: value.id, contents: Self.records(value.segments),
                        tools: value.toolDefinitions.map {
                            ToolRecord(name: $0.name, description: $0.description, parameters: $0.storedParameters)
                        }))
            case .prompt(let value):
                var record = EntryRecord(role: "user", id: value.id, contents: Self.records(value.segments))
                record.options = OptionsRecord(value.options)
                record.responseFormat = value.responseFormat.map { FormatRecord(name: $0.name, schema: $0.schema) }
                if value.storedContextOptions != ContextOptionsCore() { record.contextOptions = ContextRecord(value.storedContextOptions) }
                record.metadata = Self.record(value.storedMetadata)
                records.append(record)
            case .toolCalls(let value):
                var record = EntryRecord(role: "toolCalls", id: value.id)
                record.toolCalls = value.map {
                    ToolCallRecord(
                        id: $0.id, name: $0.toolName, arguments: $0.arguments.jsonString, metadata: Self.record($0.storedMetadata))
                }
                records.append(record)
            case .toolOutput(let value):
                var record = EntryRecord(role: "tool", id: value.id, contents: Self.records(value.segments))
                record.toolName = value.toolName
                records.append(record)
            case .response(let value):
                var record = EntryRecord(role: "response", id: value.id, contents: Self.records(value.segments))
                record.assetIDs = value.assetIDs
                record.metadata = Self.record(value.metadata)
                records.append(record)
            case .reasoning(let value):
                var record = EntryRecord(role: "reasoning", id: value.id, contents: Self.records(value.segments))
                record.signature = value.signature
                record.metadata = Self.record(value.metadata)
                records.append(record)
            }
        }
        try Envelope(type: "FoundationModels.Transcript", version: "1.1", transcript: Body(entries: records)).encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let envelope = try Envelope(from: decoder)
        func corrupted(_ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
        }
        func segments(_ records: [SegmentRecord]?) throws -> [Segment] {
            try (records ?? []).map { record in
                switch record.type {
                case "text": return .text(TextSegment(id: record.id, content: record.text ?? ""))
                case "structure":
                    return .structure(
                        StructuredSegment(
                            id: record.id, schemaName: record.source ?? "", content: try GeneratedContent(json: record.content ?? "null")))
                case "image":
                    let image = ImageAttachment(data: record.data ?? Data(), contentType: record.contentType ?? "")
                    return .attachment(AttachmentSegment(id: record.id, content: .image(image), label: record.label))
                default: throw corrupted("Unknown segment type '\(record.type)'.")
                }
            }
        }
        var entries: [Entry] = []
        for record in envelope.transcript.entries {
            let metadata = try Self.metadata(record.metadata)
            switch record.role {
            case "instructions":
                entries.append(
                    .instructions(
                        Instructions(
                            id: record.id, segments: try segments(record.contents),
                            toolDefinitions: (record.tools ?? []).map {
                                ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters)
                            })))
            case "user":
                var prompt = Prompt(
                    id: record.id, segments: try segments(record.contents),
                    options: record.options?.options ?? GenerationOptions(),
                    responseFormat: record.responseFormat.map { ResponseFormat(name: $0.name, schema: $0.schema) })
                prompt.storedContextOptions = record.contextOptions?.core ?? ContextOptionsCore()
                prompt.storedMetadata = metadata
                entries.append(.prompt(prompt))
            case "toolCalls":
                entries.append(
                    .toolCalls(
                        ToolCalls(
                            id: record.id,
                            try (record.toolCalls ?? []).map {
                                var call = ToolCall(id: $0.id, toolName: $0.name, arguments: try GeneratedContent(json: $0.arguments))
                                call.storedMetadata = try Self.metadata($0.metadata)
                                return call
                            })))
            case "tool":
                entries.append(
                    .toolOutput(ToolOutput(id: record.id, toolName: record.toolName ?? "", segments: try segments(record.contents))))
            case "response":
                var response = Response(id: record.id, assetIDs: record.assetIDs ?? [], segments: try segments(record.contents))
                response.metadata = metadata
                entries.append(.response(response))
            case "reasoning":
                var reasoning = Reasoning(id: record.id, segments: try segments(record.contents), signature: record.signature)
                reasoning.metadata = metadata
                entries.append(.reasoning(reasoning))
            default:
                throw corrupted("Unknown transcript entry role '\(record.role)'.")
            }
        }
        self.init(entries: entries)
    }

    fileprivate static func records(_ list: [Segment]) -> [SegmentRecord] {
        list.map { segment in
            switch segment {
            case .text(let text): SegmentRecord(type: "text", id: text.id, text: text.content)
            case .structure(let structure):
                SegmentRecord(type: "structure", id: structure.id, source: structure.schemaName, content: structure.content.jsonString)
            case .attachment(let attachment):
                switch attachment.content {
                case .image(let image):
                    SegmentRecord(
                        type: "image", id: attachment.id, label: attachment.label, data: image.data, contentType: image.contentType)
                }
            }
        }
    }

    /// Metadata as JSON strings; `nil` when there is none, so the key is left out.
    fileprivate static func record(_ metadata: [String: GeneratedContent]) -> [String: String]? {
        metadata.isEmpty ? nil : metadata.mapValues(\.jsonString)
    }

    fileprivate static func metadata(_ record: [String: String]?) throws -> [String: GeneratedContent] {
        try (record ?? [:]).mapValues { try GeneratedContent(json: $0) }
    }
}

extension Transcript.OptionsRecord {
    init(_ options: GenerationOptions) {
        temperature = options.temperature
        maximumResponseTokens = options.maximumResponseTokens
        switch options.sampling?.strategy {
        case nil: break
        case .greedy?: sampling = "greedy"
        case .randomTopK(let k, let seed)?:
            sampling = "top"
            top = k
            self.seed = seed
        case .randomProbabilityThreshold(let p, let seed)?:
            sampling = "probabilityThreshold"
            probabilityThreshold = p
            self.seed = seed
        }
        toolCallingMode =
            switch options.toolCalling {
            case nil: nil
            case .allowed?: "allowed"
            case .required?: "required"
            case .disallowed?: "disallowed"
            }
    }

    var options: GenerationOptions {
        let mode: GenerationOptions.SamplingMode? =
            switch sampling {
            case "greedy": .greedy
            case "top": .random(top: top ?? 1, seed: seed)
            case "probabilityThreshold": .random(probabilityThreshold: probabilityThreshold ?? 1, seed: seed)
            default: nil
            }
        var options = GenerationOptions(samplingMode: mode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
        options.toolCalling =
            switch toolCallingMode {
            case "allowed": .allowed
            case "required": .required
            case "disallowed": .disallowed
            default: nil
            }
        return options
    }
}

extension Transcript.ContextRecord {
    init(_ options: ContextOptionsCore) {
        includeSchemaInPrompt = options.includeSchemaInPrompt
        reasoningLevel =
            switch options.reasoningLevel {
            case nil: nil
            case .light?: "light"
            case .moderate?: "moderate"
            case .deep?: "deep"
            case .custom(let name)?: "custom:" + name
            }
    }

    var core: ContextOptionsCore {
        let level: ReasoningLevelCore? =
            switch reasoningLevel {
            case "light": .light
            case "moderate": .moderate
            case "deep": .deep
            case let name? where name.hasPrefix("custom:"): .custom(String(name.dropFirst("custom:".count)))
            default: nil
            }
        return ContextOptionsCore(includeSchemaInPrompt: includeSchemaInPrompt, reasoningLevel: level)
    }
}
#endif
