// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// A type-erased dynamic profile.
    public struct AnyDynamicProfile: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
        let base: any LanguageModelSession.DynamicProfile

        /// Erases `dynamicProfile`.
        public init(_ dynamicProfile: any LanguageModelSession.DynamicProfile) {
            base = dynamicProfile
        }

        /// Erases `dynamicProfile`.
        public init(erasing dynamicProfile: some LanguageModelSession.DynamicProfile) {
            base = dynamicProfile
        }

        /// Never read: the session evaluates the erased profile.
        public var body: Never {
            preconditionFailure("LanguageModelSession.AnyDynamicProfile is evaluated by the session; its body is never read.")
        }

        func resolve(into resolution: inout ProfileResolution) {
            resolveProfile(base, into: &resolution)
        }
    }
}
#endif
