// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// Dynamic instructions bound to session-level configuration: what a dynamic profile's body
    /// resolves to. Configure it with modifiers (`.model(_:)`, `.temperature(_:)`,
    /// `.onToolCall { … }`, …).
    public struct Profile: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
        let instructions: AnyDynamicInstructions

        /// A profile of `dynamicInstructions` (evaluated before every request).
        public init(@DynamicInstructionsBuilder _ dynamicInstructions: () -> some DynamicInstructions) {
            instructions = AnyDynamicInstructions(erasing: dynamicInstructions())
        }

        /// Never read: the session evaluates the profile.
        public var body: Never {
            preconditionFailure("LanguageModelSession.Profile is evaluated by the session; its body is never read.")
        }

        func resolve(into resolution: inout ProfileResolution) {
            resolution.path.append("Profile")
            var instructions = InstructionsResolution()
            resolveInstructions(self.instructions, into: &instructions)
            resolution.instructions = instructions
        }
    }
}
#endif
