// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Which API's errors a session raises for its own failures.
enum ErrorDialect: Sendable {
    /// A session of the 26 initializers with a `SystemLanguageModel`: `GenerationError`.
    case generation26
    /// A session of a 27 initializer: `LanguageModelSession.Error`, `GeneratedContent.ParsingError`.
    case session27
}

/// A failure the session raises itself (not the model's, not a tool's).
enum SessionFailure {
    case concurrentRequests
    case transcriptMutationWhileResponding
    /// The model's output cannot be read: `raw` is what it produced.
    case unreadable(raw: String, reason: String)
    case unsupportedCapability(CapabilityCore, reason: String)
}

extension ErrorDialect {
    /// The error to throw for `failure`.
    ///
    /// The 27 errors exist only where the 27 API is available; elsewhere (tvOS, and Apple
    /// platforms before 27) a 27 failure, which only 27 code can cause, falls back to the closest
    /// 26 error.
    func error(_ failure: SessionFailure) -> any Error {
        #if !os(tvOS)
        if #available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *) {
            if let error = error27(failure) { return error }
        }
        #endif
        return error26(failure)
    }

    private func error26(_ failure: SessionFailure) -> LanguageModelSession.GenerationError {
        switch failure {
        case .concurrentRequests:
            .concurrentRequests(.init(debugDescription: "The session is already responding to a request."))
        case .transcriptMutationWhileResponding:
            .concurrentRequests(.init(debugDescription: "The transcript was changed while the session was responding."))
        case .unreadable(_, let reason):
            .decodingFailure(.init(debugDescription: reason))
        case .unsupportedCapability(_, let reason):
            .decodingFailure(.init(debugDescription: reason))
        }
    }

    #if !os(tvOS)
    @available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
    @available(tvOS, unavailable)
    private func error27(_ failure: SessionFailure) -> (any Error)? {
        switch (self, failure) {
        case (_, .transcriptMutationWhileResponding):
            LanguageModelSession.Error.transcriptMutationWhileResponding
        case (_, .unsupportedCapability(let capability, let reason)):
            LanguageModelError.unsupportedCapability(.init(capability: .init(core: capability), debugDescription: reason))
        case (.session27, .concurrentRequests):
            LanguageModelSession.Error.concurrentRequests
        case (.session27, .unreadable(let raw, let reason)):
            GeneratedContent.ParsingError(rawContent: raw, debugDescription: reason)
        case (.generation26, _):
            nil
        }
    }
    #endif
}
#endif
