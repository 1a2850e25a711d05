// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// A property wrapper that reads and writes a session property from dynamic instructions,
    /// dynamic profiles, their modifiers and tools.
    ///
    /// ```swift
    /// struct Notes: DynamicInstructions {
    ///     @SessionProperty(\.history) var history
    ///     var body: some DynamicInstructions {
    ///         Instructions("The conversation has \(history.count) entries.")
    ///     }
    /// }
    /// ```
    ///
    /// The value is that of the session whose code is running: the session binds itself while
    /// it evaluates a body, calls a tool or runs a profile callback. Outside a session the
    /// wrapper reads defaults (an empty history, a key's `defaultValue`) and its writes go
    /// nowhere. `history` is read-only in bodies and tools (writes there are ignored) and
    /// writable in profile callbacks.
    @propertyWrapper
    public struct SessionProperty<Value> {
        let keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>

        /// A wrapper for the property at `keyPath` of the session's ``SessionPropertyValues``.
        public init(_ keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>) {
            self.keyPath = keyPath
        }

        /// The property's value in the session whose code is running.
        public var wrappedValue: Value {
            get { SessionPropertyValues.current[keyPath: keyPath] }
            nonmutating set { SessionPropertyValues.current[keyPath: keyPath] = newValue }
        }
    }
}

// Safety: the only stored property is a key path, an immutable value that is safe to share.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession.SessionProperty: @unchecked Sendable where Value: Sendable {}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Tool {
    /// A property wrapper that provides access to a session property from within a tool.
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}
#endif
