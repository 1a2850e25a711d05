// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Everything one ``LanguageModelExecutor/respond(to:model:streamingInto:)`` call needs: the
/// transcript to continue, the tools the model may call, the optional response schema, and the
/// options and metadata of the request.
///
/// Note the label asymmetry, as in Apple's API: the initializer takes `enabledTools:`, the
/// property is ``enabledToolDefinitions``.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct LanguageModelExecutorGenerationRequest: Sendable {
    /// The request's identity, new for every model request.
    public var id: UUID
    /// A transcript to generate the next entry for: the leading instructions entry (with the
    /// definitions of the tools the instructions describe), then the history as the session's
    /// history transforms left it.
    public var transcript: Transcript
    /// The subset of tool definitions that the model is allowed to call in this request.
    public var enabledToolDefinitions: [Transcript.ToolDefinition]
    /// The schema the answer must follow, if any.
    public var schema: GenerationSchema?
    /// The generation options, after the session applied the profile's modifiers under the
    /// call site's options.
    public var generationOptions: GenerationOptions
    /// The context options of the request.
    public var contextOptions: ContextOptions
    /// Metadata to attach to the request.
    public var metadata: [String: GeneratedContent]

    /// Portable: what the session knows beyond Apple's fields, for the 26 backend adapter.
    var details: ModelRequest.Details

    /// A request, as a test of an executor builds one.
    public init(
        id: UUID, transcript: Transcript, enabledTools: [Transcript.ToolDefinition], schema: GenerationSchema? = nil,
        generationOptions: GenerationOptions, contextOptions: ContextOptions, metadata: [String: any ConvertibleToGeneratedContent]
    ) {
        self.id = id
        self.transcript = transcript
        self.enabledToolDefinitions = enabledTools
        self.schema = schema
        self.generationOptions = generationOptions
        self.contextOptions = contextOptions
        self.metadata = storedMetadata(metadata)
        self.details = ModelRequest.Details()
    }

    init(_ request: ModelRequest) {
        id = request.id
        transcript = request.transcript
        enabledToolDefinitions = request.enabledTools
        schema = request.schema
        generationOptions = request.generationOptions
        contextOptions = ContextOptions(request.contextOptions)
        metadata = request.metadata
        details = request.details
    }

    var core: ModelRequest {
        ModelRequest(
            id: id, transcript: transcript, enabledTools: enabledToolDefinitions, schema: schema, generationOptions: generationOptions,
            contextOptions: contextOptions.core, metadata: metadata, details: details)
    }
}

/// A model request as the session's core builds it, without availability (the 26 API runs on
/// the same core).
struct ModelRequest: Sendable {
    /// What the session knows about a request beyond Apple's fields.
    struct Details: Sendable {
        /// Enabled tools whose definitions the instructions leave out
        /// (`includesSchemaInInstructions == false`).
        var toolsOutsideInstructions: Set<String> = []
        /// The answer is read as plain text even with a schema (`respond(to:generating: String.self)`).
        var answersWithPlainText = false
        /// The caller reads the answer as a stream (`streamResponse`).
        var streamsAnswer = false
    }

    var id: UUID
    var transcript: Transcript
    var enabledTools: [Transcript.ToolDefinition]
    var schema: GenerationSchema?
    var generationOptions: GenerationOptions
    var contextOptions: ContextOptionsCore
    var metadata: [String: GeneratedContent]
    var details: Details
}
#endif
