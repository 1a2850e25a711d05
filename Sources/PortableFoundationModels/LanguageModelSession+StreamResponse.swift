// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

extension LanguageModelSession {
    final public func streamResponse(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<String> {
        LanguageModelSession.ResponseStream { partial in
            try await self.run(prompt: prompt, schema: nil, format: nil, options: options, as: String.self, partial: partial)
        }
    }

    @_disfavoredOverload
    final public func streamResponse(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<String> {
        streamResponse(to: Prompt(prompt), options: options)
    }

    final public func streamResponse(
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<String> {
        streamResponse(to: try prompt(), options: options)
    }

    final public func streamResponse(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        LanguageModelSession.ResponseStream { partial in
            try await self.run(
                prompt: prompt, schema: schema, format: Transcript.ResponseFormat(schema: schema), options: options,
                context: ContextOptionsCore(includeSchemaInPrompt: includeSchemaInPrompt), as: GeneratedContent.self, partial: partial)
        }
    }

    @_disfavoredOverload
    final public func streamResponse(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        streamResponse(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    final public func streamResponse(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        streamResponse(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    final public func streamResponse<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<Content> {
        LanguageModelSession.ResponseStream { partial in
            try await self.run(
                prompt: prompt, schema: Content.generationSchema, format: Transcript.ResponseFormat(type: Content.self), options: options,
                context: ContextOptionsCore(includeSchemaInPrompt: includeSchemaInPrompt), as: Content.self, partial: partial)
        }
    }

    @_disfavoredOverload
    final public func streamResponse<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<Content> {
        streamResponse(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    final public func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<Content> {
        streamResponse(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}
#endif
