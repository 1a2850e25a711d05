// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// A dynamic profile that resolves to one of two profiles (an `if`/`else` or a `switch`
    /// in a profile's body).
    ///
    /// Switching branches switches the active profile: the session runs the old profile's
    /// `onDeactivate` and the new one's `onActivate` callbacks before the next request.
    public struct ConditionalDynamicProfile<TrueContent, FalseContent>: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile
    where TrueContent: LanguageModelSession.DynamicProfile, FalseContent: LanguageModelSession.DynamicProfile {
        enum Branch {
            case trueContent(TrueContent)
            case falseContent(FalseContent)
        }

        let branch: Branch

        /// Never read: the session evaluates the chosen profile.
        public var body: Never {
            preconditionFailure("LanguageModelSession.ConditionalDynamicProfile is evaluated by the session; its body is never read.")
        }

        func resolve(into resolution: inout ProfileResolution) {
            switch branch {
            case .trueContent(let content):
                resolution.path.append("if")
                resolveProfile(content, into: &resolution)
            case .falseContent(let content):
                resolution.path.append("else")
                resolveProfile(content, into: &resolution)
            }
        }
    }
}
#endif
