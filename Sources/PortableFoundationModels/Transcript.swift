// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A linear history of entries: instructions, prompts, reasoning, tool calls and outputs, and
/// responses.
///
/// 27 makes a transcript mutable (`MutableCollection`, `RangeReplaceableCollection`) and adds
/// ``history``, the entries after the leading instructions entry.
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
        /// The model's reasoning before it answered (27). Portable: the case and its payload carry
        /// no availability, because a module built without library evolution cannot mark an
        /// enum case with a payload as potentially unavailable.
        case reasoning(Transcript.Reasoning)

        public var id: String {
            switch self {
            case .instructions(let value): value.id
            case .prompt(let value): value.id
            case .toolCalls(let value): value.id
            case .toolOutput(let value): value.id
            case .response(let value): value.id
            case .reasoning(let value): value.id
            }
        }

        public var description: String {
            switch self {
            case .instructions(let value): value.description
            case .prompt(let value): value.description
            case .toolCalls(let value): value.description
            case .toolOutput(let value): value.description
            case .response(let value): value.description
            case .reasoning(let value): value.description
            }
        }
    }

    public enum Segment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        case text(Transcript.TextSegment)
        case structure(Transcript.StructuredSegment)
        /// An attachment, such as an image (27; without availability, as `Entry.reasoning`).
        case attachment(Transcript.AttachmentSegment)

        public var id: String {
            switch self {
            case .text(let segment): segment.id
            case .structure(let segment): segment.id
            case .attachment(let segment): segment.id
            }
        }

        public var description: String {
            switch self {
            case .text(let segment): segment.description
            case .structure(let segment): segment.description
            case .attachment(let segment): segment.description
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
        /// The tool's parameters (public and settable from 27; not readable in 26).
        var storedParameters: GenerationSchema

        public init(name: String, description: String, parameters: GenerationSchema) {
            self.name = name
            self.description = description
            self.storedParameters = parameters
        }

        public init(tool: some Tool) {
            self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
        }

        public static func == (lhs: Transcript.ToolDefinition, rhs: Transcript.ToolDefinition) -> Bool {
            lhs.name == rhs.name && lhs.description == rhs.description && lhs.storedParameters.isSameSchema(as: rhs.storedParameters)
        }
    }

    public struct Prompt: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var segments: [Transcript.Segment]
        public var options: GenerationOptions
        public var responseFormat: Transcript.ResponseFormat?
        /// The prompt's context options (public from 27 as `contextOptions`).
        var storedContextOptions = ContextOptionsCore()
        /// The prompt's metadata (public from 27 as `metadata`).
        var storedMetadata: [String: GeneratedContent] = [:]

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
        /// The call's metadata (public from 27 as `metadata`).
        var storedMetadata: [String: GeneratedContent] = [:]
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
        /// What the model's provider said about the response (27's type, back-deployed to 26 in
        /// Apple's SDK): what an executor set with `updateMetadata(_:)`, empty otherwise.
        public var metadata: [String: GeneratedContent] = [:]

        public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Transcript.Segment]) {
            self.id = id
            self.assetIDs = assetIDs
            self.segments = segments
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
            case .attachment(let attachment): attachment.label ?? "[attachment]"
            }
        }.joined(separator: "\n")
    }
}

#endif
