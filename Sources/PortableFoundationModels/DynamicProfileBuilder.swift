// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// Builds a dynamic profile's body: exactly one profile, or a choice between profiles with
    /// `if`/`else` or `switch` (no `if` without `else`: the body must always resolve to one
    /// profile).
    @resultBuilder
    public struct DynamicProfileBuilder {
        /// The one profile.
        public static func buildBlock<T>(_ content: T) -> T where T: LanguageModelSession.DynamicProfile {
            content
        }

        /// The `if` branch.
        public static func buildEither<TrueContent, FalseContent>(
            first content: TrueContent
        ) -> LanguageModelSession.ConditionalDynamicProfile<TrueContent, FalseContent>
        where TrueContent: LanguageModelSession.DynamicProfile, FalseContent: LanguageModelSession.DynamicProfile {
            ConditionalDynamicProfile(branch: .trueContent(content))
        }

        /// The `else` branch.
        public static func buildEither<TrueContent, FalseContent>(
            second content: FalseContent
        ) -> LanguageModelSession.ConditionalDynamicProfile<TrueContent, FalseContent>
        where TrueContent: LanguageModelSession.DynamicProfile, FalseContent: LanguageModelSession.DynamicProfile {
            ConditionalDynamicProfile(branch: .falseContent(content))
        }

        /// An `if #available` block.
        public static func buildLimitedAvailability(
            _ content: some LanguageModelSession.DynamicProfile
        ) -> LanguageModelSession.AnyDynamicProfile {
            AnyDynamicProfile(erasing: content)
        }
    }
}
#endif
