// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension LanguageModelSession {
    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<String> {
        try await run(prompt: prompt, schema: nil, format: nil, options: options, as: String.self)
    }

    @discardableResult @_disfavoredOverload
    nonisolated(nonsending) final public func respond(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<String> {
        try await respond(to: Prompt(prompt), options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond(
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<String> {
        try await respond(to: try prompt(), options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await run(
            prompt: prompt, schema: schema, format: Transcript.ResponseFormat(schema: schema), options: options,
            context: ContextOptionsCore(includeSchemaInPrompt: includeSchemaInPrompt), as: GeneratedContent.self)
    }

    @discardableResult @_disfavoredOverload
    nonisolated(nonsending) final public func respond(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await respond(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await respond(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<Content> {
        try await run(
            prompt: prompt, schema: Content.generationSchema, format: Transcript.ResponseFormat(type: Content.self),
            options: options, context: ContextOptionsCore(includeSchemaInPrompt: includeSchemaInPrompt), as: Content.self)
    }

    @discardableResult @_disfavoredOverload
    nonisolated(nonsending) final public func respond<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<Content> {
        try await respond(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<Content> {
        try await respond(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}
#endif
