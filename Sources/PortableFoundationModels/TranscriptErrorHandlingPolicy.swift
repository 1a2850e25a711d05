// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// What a session does with its transcript when a response fails.
///
/// `.revertTranscript` rolls the transcript back to where it was before the failed `respond`
/// (its prompt, tool calls, outputs and any partial answer are removed);
/// `.preserveTranscript` keeps what the response produced before it failed. A session without a
/// policy preserves (the 26 behaviour: an overflowed session keeps its overflowing entries).
/// The active profile's `transcriptErrorHandlingPolicy(_:)` modifier takes precedence over the
/// session's ``LanguageModelSession/transcriptErrorHandlingPolicy``. A response that fails with
/// `LanguageModelSession.Error.transcriptMutationWhileResponding` never reverts: the
/// transcript the app wrote stays.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct TranscriptErrorHandlingPolicy: Sendable, Equatable {
    let core: ErrorPolicyCore

    /// Roll the transcript back to its state before the failed response.
    public static let revertTranscript = TranscriptErrorHandlingPolicy(core: .revert)
    /// Keep the transcript in its state following the error.
    public static let preserveTranscript = TranscriptErrorHandlingPolicy(core: .preserve)
}

/// The session's record of a transcript error policy, without availability.
enum ErrorPolicyCore: Sendable, Equatable {
    case revert, preserve
}
#endif
