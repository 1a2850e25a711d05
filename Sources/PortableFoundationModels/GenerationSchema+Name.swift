// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension GenerationSchema {
    /// The name of the schema's root type: an object's, a string enum's or an `anyOf`'s name
    /// (the title of its JSON form); empty for a schema of a plain value, such as a string.
    ///
    /// A provider uses it, for instance, as the name of a JSON-schema response format.
    public var name: String {
        node.typeName ?? ""
    }
}
#endif
