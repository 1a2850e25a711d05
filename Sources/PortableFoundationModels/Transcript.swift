// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A linear history of entries: instructions, prompts, tool calls and outputs, and responses.
public struct Transcript: Sendable, Equatable, RandomAccessCollection, Codable {
    var entries: [Entry]

    public init(entries: some Sequence<Transcript.Entry> = []) {
        self.entries = Array(entries)
    }

    public typealias Index = Int
    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(index: Int) -> Transcript.Entry {
        get { entries[index] }
        set { entries[index] = newValue }
    }

    public enum Entry: Sendable, Identifiable, Equatable, CustomStringConvertible {
        case instructions(Transcript.Instructions)
        case prompt(Transcript.Prompt)
        case toolCalls(Transcript.ToolCalls)
        case toolOutput(Transcript.ToolOutput)
        case response(Transcript.Response)
        /// Never produced or accepted. It stands for the entry kinds a later OS adds (Apple's enum is
        /// resilient, so a `switch` over it needs a `default`; this keeps such a `default` legal here).
        case _reserved(Transcript._ReservedEntry)

        public var id: String {
            switch self {
            case .instructions(let value): value.id
            case .prompt(let value): value.id
            case .toolCalls(let value): value.id
            case .toolOutput(let value): value.id
            case .response(let value): value.id
            case ._reserved(let value): value.id
            }
        }

        public var description: String {
            switch self {
            case .instructions(let value): value.description
            case .prompt(let value): value.description
            case .toolCalls(let value): value.description
            case .toolOutput(let value): value.description
            case .response(let value): value.description
            case ._reserved: "(reserved)"
            }
        }
    }

    /// A placeholder that cannot be created; see `Entry._reserved`.
    public struct _ReservedEntry: Sendable, Equatable {
        let id: String
    }

    public enum Segment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        case text(Transcript.TextSegment)
        case structure(Transcript.StructuredSegment)

        public var id: String {
            switch self {
            case .text(let segment): segment.id
            case .structure(let segment): segment.id
            }
        }

        public var description: String {
            switch self {
            case .text(let segment): segment.description
            case .structure(let segment): segment.description
            }
        }
    }

    public struct TextSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var content: String
        public init(id: String = UUID().uuidString, content: String) {
            self.id = id
            self.content = content
        }
        public var description: String { content }
    }

    /// Structured content in a transcript, named by the schema it follows.
    public struct StructuredSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        var storedSchemaName: String
        public var content: GeneratedContent

        /// The name of the schema the content follows (27's name for `source`, back-deployed).
        public var schemaName: String {
            get { storedSchemaName }
            set { storedSchemaName = newValue }
        }

        /// The name of the schema the content follows (deprecated in 27: use `schemaName`).
        @available(*, deprecated, renamed: "schemaName")
        public var source: String {
            get { storedSchemaName }
            set { storedSchemaName = newValue }
        }

        /// A segment of `content` that follows the schema named `source` (deprecated in 27).
        @available(*, deprecated, renamed: "init(id:schemaName:content:)")
        public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
            self.init(id: id, schemaName: source, content: content)
        }

        /// A segment of `content` that follows the schema named `schemaName` (27).
        public init(id: String = UUID().uuidString, schemaName: String, content: GeneratedContent) {
            self.id = id
            self.storedSchemaName = schemaName
            self.content = content
        }

        public var description: String { content.jsonString }
    }

    public struct Instructions: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var segments: [Transcript.Segment]
        public var toolDefinitions: [Transcript.ToolDefinition]
        public init(id: String = UUID().uuidString, segments: [Transcript.Segment], toolDefinitions: [Transcript.ToolDefinition]) {
            self.id = id
            self.segments = segments
            self.toolDefinitions = toolDefinitions
        }
        public var description: String {
            var text = "Instructions: " + segments.map(\.description).joined(separator: "\n")
            for tool in toolDefinitions { text += "\n" + tool.description }
            return text
        }
    }

    public struct ToolDefinition: Sendable, Equatable, CustomStringConvertible {
        public var name: String
        public var description: String
        /// Not readable in Apple's 26.x API.
        var parameters: GenerationSchema

        public init(name: String, description: String, parameters: GenerationSchema) {
            self.name = name
            self.description = description
            self.parameters = parameters
        }

        public init(tool: some Tool) {
            self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
        }

        public static func == (lhs: Transcript.ToolDefinition, rhs: Transcript.ToolDefinition) -> Bool {
            lhs.name == rhs.name && lhs.description == rhs.description && lhs.parameters.isSameSchema(as: rhs.parameters)
        }
    }

    public struct Prompt: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var segments: [Transcript.Segment]
        public var options: GenerationOptions
        public var responseFormat: Transcript.ResponseFormat?
        public init(
            id: String = UUID().uuidString, segments: [Transcript.Segment],
            options: GenerationOptions = GenerationOptions(), responseFormat: Transcript.ResponseFormat? = nil
        ) {
            self.id = id
            self.segments = segments
            self.options = options
            self.responseFormat = responseFormat
        }
        public var description: String { "Prompt: " + segments.map(\.description).joined(separator: "\n") }
    }

    public struct ResponseFormat: Sendable, Equatable, CustomStringConvertible {
        public var name: String { storedName }
        let storedName: String
        let schema: GenerationSchema

        public init<Content: Generable>(type: Content.Type) {
            storedName = String(describing: Content.self)
            schema = Content.generationSchema
        }

        public init(schema: GenerationSchema) {
            storedName = schema.node.typeName ?? ""
            self.schema = schema
        }

        init(name: String, schema: GenerationSchema) {
            storedName = name
            self.schema = schema
        }

        public static func == (lhs: Transcript.ResponseFormat, rhs: Transcript.ResponseFormat) -> Bool {
            lhs.storedName == rhs.storedName && lhs.schema.isSameSchema(as: rhs.schema)
        }

        public var description: String { "ResponseFormat: \(name)" }
    }

    public struct ToolCalls: Sendable, Identifiable, Equatable, CustomStringConvertible, RandomAccessCollection {
        public var id: String
        var calls: [Transcript.ToolCall]

        public init<S: Sequence>(id: String = UUID().uuidString, _ calls: S) where S.Element == Transcript.ToolCall {
            self.id = id
            self.calls = Array(calls)
        }

        public typealias Index = Int
        public var startIndex: Int { calls.startIndex }
        public var endIndex: Int { calls.endIndex }
        public subscript(position: Int) -> Transcript.ToolCall { calls[position] }

        public var description: String { "Tool calls: " + calls.map(\.description).joined(separator: ", ") }
    }

    public struct ToolCall: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var toolName: String
        public var arguments: GeneratedContent
        public init(id: String, toolName: String, arguments: GeneratedContent) {
            self.id = id
            self.toolName = toolName
            self.arguments = arguments
        }
        public var description: String { "\(toolName)(\(arguments.jsonString))" }
    }

    public struct ToolOutput: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var toolName: String
        public var segments: [Transcript.Segment]
        public init(id: String, toolName: String, segments: [Transcript.Segment]) {
            self.id = id
            self.toolName = toolName
            self.segments = segments
        }
        public var description: String { "Tool output (\(toolName)): " + segments.map(\.description).joined(separator: "\n") }
    }

    public struct Response: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var assetIDs: [String]
        public var segments: [Transcript.Segment]
        public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Transcript.Segment]) {
            self.id = id
            self.assetIDs = assetIDs
            self.segments = segments
        }

        /// What is known about how the response was made (back-deployed from 27).
        ///
        /// Before 27 Apple's back-deployed property returns `["assetIDs": assetIDs]`, and so
        /// does this one.
        public var metadata: [String: any Codable & Sendable & Equatable] {
            ["assetIDs": assetIDs]
        }
        public var description: String { "Response: " + segments.map(\.description).joined(separator: "\n") }
    }
}

extension GenerationSchema {
    func isSameSchema(as other: GenerationSchema) -> Bool {
        node == other.node && defs == other.defs
    }
}

extension Array where Element == Transcript.Segment {
    /// The segments as plain text: text segments as they are, structured ones as JSON.
    var plainText: String {
        map { segment in
            switch segment {
            case .text(let text): text.content
            case .structure(let structure): structure.content.jsonString
            }
        }.joined(separator: "\n")
    }
}

// MARK: - Codable

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
    }

    fileprivate struct OptionsRecord: Codable {
        var sampling: String?
        var top: Int?
        var probabilityThreshold: Double?
        var seed: UInt64?
        var temperature: Double?
        var maximumResponseTokens: Int?
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
    }

    public func encode(to encoder: any Encoder) throws {
        func segments(_ list: [Segment]) -> [SegmentRecord] {
            list.map { segment in
                switch segment {
                case .text(let text): SegmentRecord(type: "text", id: text.id, text: text.content)
                case .structure(let structure):
                    SegmentRecord(type: "structure", id: structure.id, source: structure.schemaName, content: structure.content.jsonString)
                }
            }
        }
        var records: [EntryRecord] = []
        for entry in entries {
            switch entry {
            case .instructions(let value):
                records.append(EntryRecord(
                    role: "instructions", id: value.id, contents: segments(value.segments),
                    tools: value.toolDefinitions.map { ToolRecord(name: $0.name, description: $0.description, parameters: $0.parameters) }))
            case .prompt(let value):
                var record = EntryRecord(role: "user", id: value.id, contents: segments(value.segments))
                record.options = OptionsRecord(value.options)
                record.responseFormat = value.responseFormat.map { FormatRecord(name: $0.name, schema: $0.schema) }
                records.append(record)
            case .toolCalls(let value):
                var record = EntryRecord(role: "toolCalls", id: value.id)
                record.toolCalls = value.map { ToolCallRecord(id: $0.id, name: $0.toolName, arguments: $0.arguments.jsonString) }
                records.append(record)
            case .toolOutput(let value):
                var record = EntryRecord(role: "tool", id: value.id, contents: segments(value.segments))
                record.toolName = value.toolName
                records.append(record)
            case .response(let value):
                var record = EntryRecord(role: "response", id: value.id, contents: segments(value.segments))
                record.assetIDs = value.assetIDs
                records.append(record)
            case ._reserved:
                break
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
                    return .structure(StructuredSegment(
                        id: record.id, schemaName: record.source ?? "", content: try GeneratedContent(json: record.content ?? "null")))
                default: throw corrupted("Unknown segment type '\(record.type)'.")
                }
            }
        }
        var entries: [Entry] = []
        for record in envelope.transcript.entries {
            switch record.role {
            case "instructions":
                entries.append(.instructions(Instructions(
                    id: record.id, segments: try segments(record.contents),
                    toolDefinitions: (record.tools ?? []).map { ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters) })))
            case "user":
                entries.append(.prompt(Prompt(
                    id: record.id, segments: try segments(record.contents),
                    options: record.options?.options ?? GenerationOptions(),
                    responseFormat: record.responseFormat.map { ResponseFormat(name: $0.name, schema: $0.schema) })))
            case "toolCalls":
                entries.append(.toolCalls(ToolCalls(id: record.id, try (record.toolCalls ?? []).map {
                    ToolCall(id: $0.id, toolName: $0.name, arguments: try GeneratedContent(json: $0.arguments))
                })))
            case "tool":
                entries.append(.toolOutput(ToolOutput(id: record.id, toolName: record.toolName ?? "", segments: try segments(record.contents))))
            case "response":
                entries.append(.response(Response(id: record.id, assetIDs: record.assetIDs ?? [], segments: try segments(record.contents))))
            default:
                throw corrupted("Unknown transcript entry role '\(record.role)'.")
            }
        }
        self.init(entries: entries)
    }
}

extension Transcript.OptionsRecord {
    init(_ options: GenerationOptions) {
        temperature = options.temperature
        maximumResponseTokens = options.maximumResponseTokens
        switch options.samplingMode?.strategy {
        case nil: break
        case .greedy?: sampling = "greedy"
        case .randomTopK(let k, let seed)?: sampling = "top"; top = k; self.seed = seed
        case .randomProbabilityThreshold(let p, let seed)?: sampling = "probabilityThreshold"; probabilityThreshold = p; self.seed = seed
        }
    }

    var options: GenerationOptions {
        let mode: GenerationOptions.SamplingMode? = switch sampling {
        case "greedy": .greedy
        case "top": .random(top: top ?? 1, seed: seed)
        case "probabilityThreshold": .random(probabilityThreshold: probabilityThreshold ?? 1, seed: seed)
        default: nil
        }
        return GenerationOptions(samplingMode: mode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
    }
}
#endif
