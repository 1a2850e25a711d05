// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelExecutorGenerationChannel {
    /// A snapshot of a request's token totals.
    ///
    /// Producers report the current cumulative totals on every update and consumers replace the
    /// prior totals wholesale: the last update of a request is its usage. `session.usage` adds
    /// up the requests.
    public struct Usage: Sendable {
        /// The tokens the model read.
        public struct Input: Sendable {
            /// Every token of the request.
            public var totalTokenCount: Int
            /// The tokens served from the provider's cache.
            public var cachedTokenCount: Int

            /// Input totals.
            public init(totalTokenCount: Int, cachedTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// The tokens the model generated.
        public struct Output: Sendable {
            /// Every generated token, reasoning included.
            public var totalTokenCount: Int
            /// The generated tokens spent reasoning.
            public var reasoningTokenCount: Int

            /// Output totals.
            public init(totalTokenCount: Int, reasoningTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        /// The input totals.
        public var input: LanguageModelExecutorGenerationChannel.Usage.Input
        /// The output totals.
        public var output: LanguageModelExecutorGenerationChannel.Usage.Output
        /// The additional metadata with a token count.
        public var metadata: [String: GeneratedContent]

        /// Totals with optional metadata.
        public init(
            input: LanguageModelExecutorGenerationChannel.Usage.Input, output: LanguageModelExecutorGenerationChannel.Usage.Output,
            metadata: [String: any ConvertibleToGeneratedContent] = [:]
        ) {
            self.input = input
            self.output = output
            self.metadata = storedMetadata(metadata)
        }
    }

    /// A text delta: what `appendText` carries.
    public struct TextFragment: Sendable {
        /// The text.
        public var content: String
        /// The segment the text belongs to; `nil` or empty for the current segment.
        public var segmentID: String?
        /// The tokens the text took.
        public var tokenCount: Int
    }

    /// A segment's new text: what `replaceTextSegment` carries.
    public struct TextSegmentReplacement: Sendable {
        /// The segment's new text.
        public var content: String
        /// The segment replaced; `nil` or empty for the current segment.
        public var segmentID: String?
        /// The tokens used by safety or usage accounting to credit the replacement against.
        public var tokenCount: Int
    }

    /// The payload of a reasoning entry's signature update.
    public struct ReasoningSignature: Sendable {
        /// The signature.
        public var signature: Data
        /// The tokens the signature took.
        public var tokenCount: Int
    }

    /// A snapshot of an entry's metadata dictionary.
    public struct Metadata: Sendable {
        /// The entry's metadata (the release's value type of this member is not documented; the
        /// portable module stores metadata as `GeneratedContent`, as every other 27 metadata).
        public var values: [String: GeneratedContent]
    }
}

/// A request's token totals as the session records them, without availability.
struct UsageCore: Sendable, Equatable {
    var inputTokens = 0
    var cachedInputTokens = 0
    var outputTokens = 0
    var reasoningTokens = 0
    var metadata: [String: GeneratedContent] = [:]

    /// The sum of two requests' usage; metadata keys of `rhs` replace those of `lhs`.
    static func + (lhs: UsageCore, rhs: UsageCore) -> UsageCore {
        UsageCore(
            inputTokens: lhs.inputTokens + rhs.inputTokens, cachedInputTokens: lhs.cachedInputTokens + rhs.cachedInputTokens,
            outputTokens: lhs.outputTokens + rhs.outputTokens, reasoningTokens: lhs.reasoningTokens + rhs.reasoningTokens,
            metadata: lhs.metadata.merging(rhs.metadata) { _, new in new })
    }

    static func += (lhs: inout UsageCore, rhs: UsageCore) {
        lhs = lhs + rhs
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension UsageCore {
    init(
        input: LanguageModelExecutorGenerationChannel.Usage.Input, output: LanguageModelExecutorGenerationChannel.Usage.Output,
        metadata: [String: GeneratedContent]
    ) {
        self.init(
            inputTokens: input.totalTokenCount, cachedInputTokens: input.cachedTokenCount, outputTokens: output.totalTokenCount,
            reasoningTokens: output.reasoningTokenCount, metadata: metadata)
    }
}
#endif
