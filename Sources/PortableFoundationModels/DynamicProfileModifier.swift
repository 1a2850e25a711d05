// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// A reusable change to a dynamic profile, applied with `modifier(_:)`.
    ///
    /// `body(content:)` gets the profile being modified as `content` and returns it modified:
    ///
    /// ```swift
    /// struct RollingWindow: LanguageModelSession.DynamicProfileModifier {
    ///     let entries: Int
    ///     func body(content: Content) -> some LanguageModelSession.DynamicProfile {
    ///         content.historyTransform { Array($0.suffix(entries)) }
    ///     }
    /// }
    ///
    /// extension LanguageModelSession.DynamicProfile {
    ///     func rollingWindow(entries: Int) -> some LanguageModelSession.DynamicProfile {
    ///         modifier(RollingWindow(entries: entries))
    ///     }
    /// }
    /// ```
    ///
    /// The modifier's body is evaluated before every request, like a profile's.
    public protocol DynamicProfileModifier {
        /// The type of the modified profile.
        associatedtype Body: LanguageModelSession.DynamicProfile

        /// The modified profile.
        @LanguageModelSession.DynamicProfileBuilder func body(content: Self.Content) -> Self.Body

        /// The profile being modified, as `body(content:)` receives it.
        typealias Content = LanguageModelSession.DynamicProfileModifierContent<Self>
    }

    /// The profile a DynamicProfileModifier modifies, as its `body(content:)` receives it.
    public struct DynamicProfileModifierContent<Modifier>: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
        let content: AnyDynamicProfile

        /// Never read: the session evaluates the modified profile.
        public var body: Never {
            preconditionFailure("LanguageModelSession.DynamicProfileModifierContent is evaluated by the session; its body is never read.")
        }

        func resolve(into resolution: inout ProfileResolution) {
            content.resolve(into: &resolution)
        }
    }

    /// A profile with a DynamicProfileModifier applied.
    public struct ModifiedDynamicProfile<Content, Modifier>: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile
    where Content: LanguageModelSession.DynamicProfile, Modifier: LanguageModelSession.DynamicProfileModifier {
        let content: Content
        let modifier: Modifier

        /// Never read: the session evaluates the modified profile.
        public var body: Never {
            preconditionFailure("LanguageModelSession.ModifiedDynamicProfile is evaluated by the session; its body is never read.")
        }

        func resolve(into resolution: inout ProfileResolution) {
            resolution.path.append(String(describing: Modifier.self))
            let modified = modifier.body(content: DynamicProfileModifierContent(content: AnyDynamicProfile(erasing: content)))
            resolveProfile(modified, into: &resolution)
        }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession.DynamicProfileModifier {
    /// A property wrapper that provides access to a session property from a modifier.
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}
#endif
