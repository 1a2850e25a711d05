import JSONCore
import PortableFoundationModels
import Testing

@testable import ChatCompletions

/// The request bodies the builder makes, without a server.
@Suite("ChatRequestBuilder")
struct RequestBuilderTests {
    /// A schema with enough keys that a hash order would show: five properties, one nested object.
    static let schema = GenerationSchema(
        type: GeneratedContent.self, description: "A note",
        properties: [
            GenerationSchema.Property(name: "title", description: "A short title", type: String.self),
            GenerationSchema.Property(name: "body", description: "The text", type: String.self),
            GenerationSchema.Property(name: "priority", type: Int.self),
            GenerationSchema.Property(name: "pinned", type: Bool.self),
            GenerationSchema.Property(name: "author", type: String?.self),
        ])

    @Test("A schema's JSON keeps its keys in the schema's order: properties as declared, the same text in every process")
    func schemaKeyOrder() throws {
        let json = try ChatRequestBuilder.schemaJSON(Self.schema)
        let root = try #require(json.objectValue)
        #expect(Array(root.keys) == ["type", "title", "description", "properties", "additionalProperties", "required", "x-order"])
        let properties = try #require(json["properties"]?.objectValue)
        #expect(Array(properties.keys) == ["title", "body", "priority", "pinned", "author"])
        // The guided instructions carry the schema as text: the same bytes each time.
        let tool = LanguageModelToolDescription(name: "notes_add", description: "Saves a note.", parameters: Self.schema)
        let instructions = try ChatRequestBuilder.guidedInstructions(tools: [ChatRequest.Tool(tool)])
        #expect(instructions.contains(#"{"type":"object","title":"#))
        #expect(instructions.contains(#""x-order":["title","body","priority","pinned","author"]"#))
    }
}
