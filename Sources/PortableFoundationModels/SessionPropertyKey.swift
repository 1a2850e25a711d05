// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// A key for a custom session property: its value type and its default.
///
/// Apple's `@SessionPropertyEntry` macro writes the key for you; the portable module cannot have
/// it (a macro needs swift-syntax, and the package has no dependencies), so write the key and
/// the property the long way, which is what the macro abbreviates:
///
/// ```swift
/// struct TopicKey: SessionPropertyKey {
///     static let defaultValue = "general"
/// }
///
/// extension SessionPropertyValues {
///     var topic: String {
///         get { self[TopicKey.self] }
///         set { self[TopicKey.self] = newValue }
///     }
/// }
/// ```
///
/// `@SessionProperty(\.topic)` then reads and writes it in bodies, tools and callbacks, and
/// `session.properties.topic` from the app.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public protocol SessionPropertyKey: SendableMetatype {
    /// The type of the property's value.
    associatedtype Value
    /// The value of a session that has not set the property.
    static var defaultValue: Self.Value { get }
}
#endif
