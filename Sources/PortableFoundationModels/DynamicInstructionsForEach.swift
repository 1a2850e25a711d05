// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Dynamic instructions that produce content for each element of a collection.
///
/// Don't use this type directly: write `ForEach` in a body (`DynamicInstructions.ForEach`).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct DynamicInstructionsForEach<Data, ID, Content>: DynamicInstructions, PrimitiveDynamicInstructions
where Data: RandomAccessCollection, ID: Hashable, Content: DynamicInstructions {
    let data: Data
    let content: (Data.Element) -> Content

    /// Content for each element of `data`, identified by the key path `id`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }

    /// Never read.
    public var body: Never { primitiveBody() }

    func resolve(into resolution: inout InstructionsResolution) {
        for element in data {
            resolveInstructions(content(element), into: &resolution)
        }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension DynamicInstructionsForEach where ID == Data.Element.ID, Data.Element: Identifiable {
    /// Content for each element of `data`, identified by its `id`.
    public init(_ data: Data, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}
#endif
