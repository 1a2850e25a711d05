// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// 27: respond with context options and metadata. The 27 schema and generating overloads take
// whether to describe the schema in the prompt from `contextOptions.includeSchemaInPrompt`
// (`nil` means yes). Apple's reference gives the prompt overload's exact text; the others follow
// its shape.

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// Responds with text to a prompt, with context options and metadata.
    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: Prompt,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) async throws -> LanguageModelSession.Response<String> {
        try await run(
            prompt: prompt, schema: nil, format: nil, options: options, context: contextOptions.core,
            metadata: storedMetadata(metadata), as: String.self)
    }

    /// Responds with text to a prompt written as text, with context options and metadata.
    @_disfavoredOverload
    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: String,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) async throws -> LanguageModelSession.Response<String> {
        try await respond(to: Prompt(prompt), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds with text to a prompt from a builder, with context options and metadata.
    @discardableResult
    nonisolated(nonsending) final public func respond(
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<String> {
        try await respond(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds with content that follows `schema` to a prompt, with context options and metadata.
    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: Prompt, schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await run(
            prompt: prompt, schema: schema, format: Transcript.ResponseFormat(schema: schema), options: options,
            context: contextOptions.core.includingSchemaByDefault, metadata: storedMetadata(metadata), as: GeneratedContent.self)
    }

    /// Responds with content that follows `schema` to a prompt written as text, with context options and metadata.
    @_disfavoredOverload
    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: String, schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await respond(to: Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds with content that follows `schema` to a prompt from a builder, with context options and metadata.
    @discardableResult
    nonisolated(nonsending) final public func respond(
        schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await respond(to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds with a `Content` to a prompt, with context options and metadata.
    @discardableResult
    nonisolated(nonsending) final public func respond<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) async throws -> LanguageModelSession.Response<Content> {
        try await run(
            prompt: prompt, schema: Content.generationSchema, format: Transcript.ResponseFormat(type: Content.self), options: options,
            context: contextOptions.core.includingSchemaByDefault, metadata: storedMetadata(metadata), as: Content.self)
    }

    /// Responds with a `Content` to a prompt written as text, with context options and metadata.
    @_disfavoredOverload
    @discardableResult
    nonisolated(nonsending) final public func respond<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) async throws -> LanguageModelSession.Response<Content> {
        try await respond(to: Prompt(prompt), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Responds with a `Content` to a prompt from a builder, with context options and metadata.
    @discardableResult
    nonisolated(nonsending) final public func respond<Content: Generable>(
        generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<Content> {
        try await respond(to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// Streams text answering a prompt, with context options and metadata.
    final public func streamResponse(
        to prompt: Prompt,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> sending LanguageModelSession.ResponseStream<String> {
        let context = contextOptions.core
        let metadata = storedMetadata(metadata)
        return LanguageModelSession.ResponseStream { partial in
            try await self.run(
                prompt: prompt, schema: nil, format: nil, options: options, context: context, metadata: metadata, as: String.self,
                partial: partial)
        }
    }

    /// Streams text answering a prompt written as text, with context options and metadata.
    @_disfavoredOverload
    final public func streamResponse(
        to prompt: String,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> sending LanguageModelSession.ResponseStream<String> {
        streamResponse(to: Prompt(prompt), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams text answering a prompt from a builder, with context options and metadata.
    final public func streamResponse(
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<String> {
        streamResponse(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams content that follows `schema` answering a prompt, with context options and metadata.
    final public func streamResponse(
        to prompt: Prompt, schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        let context = contextOptions.core.includingSchemaByDefault
        let metadata = storedMetadata(metadata)
        return LanguageModelSession.ResponseStream { partial in
            try await self.run(
                prompt: prompt, schema: schema, format: Transcript.ResponseFormat(schema: schema), options: options, context: context,
                metadata: metadata, as: GeneratedContent.self, partial: partial)
        }
    }

    /// Streams content that follows `schema` answering a prompt written as text, with context options and metadata.
    @_disfavoredOverload
    final public func streamResponse(
        to prompt: String, schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        streamResponse(to: Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams content that follows `schema` answering a prompt from a builder, with context options and metadata.
    final public func streamResponse(
        schema: GenerationSchema,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        streamResponse(to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams a `Content` answering a prompt, with context options and metadata.
    final public func streamResponse<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> sending LanguageModelSession.ResponseStream<Content> {
        let context = contextOptions.core.includingSchemaByDefault
        let metadata = storedMetadata(metadata)
        return LanguageModelSession.ResponseStream { partial in
            try await self.run(
                prompt: prompt, schema: Content.generationSchema, format: Transcript.ResponseFormat(type: Content.self), options: options,
                context: context, metadata: metadata, as: Content.self, partial: partial)
        }
    }

    /// Streams a `Content` answering a prompt written as text, with context options and metadata.
    @_disfavoredOverload
    final public func streamResponse<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:]
    ) -> sending LanguageModelSession.ResponseStream<Content> {
        streamResponse(to: Prompt(prompt), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams a `Content` answering a prompt from a builder, with context options and metadata.
    final public func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self,
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
        metadata: [String: any ConvertibleToGeneratedContent] = [:],
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<Content> {
        streamResponse(to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }
}

extension ContextOptionsCore {
    /// The options, describing the schema in the prompt unless they say not to.
    var includingSchemaByDefault: ContextOptionsCore {
        var options = self
        if options.includeSchemaInPrompt == nil { options.includeSchemaInPrompt = true }
        return options
    }
}
#endif
