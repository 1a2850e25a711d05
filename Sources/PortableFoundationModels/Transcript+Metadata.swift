// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// 27's additions to transcript entries: settable tool parameters, a prompt's context options,
// and metadata on prompts and tool calls.

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Transcript.ToolDefinition {
    /// The tool's parameters.
    public var parameters: GenerationSchema {
        get { storedParameters }
        set { storedParameters = newValue }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Transcript.Prompt {
    /// The context options the prompt was sent with.
    public var contextOptions: ContextOptions {
        get { ContextOptions(storedContextOptions) }
        set { storedContextOptions = newValue.core }
    }

    /// The metadata the prompt was sent with.
    public var metadata: [String: GeneratedContent] {
        get { storedMetadata }
        set { storedMetadata = newValue }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Transcript.ToolCall {
    /// What the model's provider said about the call.
    public var metadata: [String: GeneratedContent] {
        get { storedMetadata }
        set { storedMetadata = newValue }
    }
}
#endif
