// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Several pieces of dynamic instructions, in order (a body of several lines).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct TupleDynamicInstructions<each Content>: DynamicInstructions, PrimitiveDynamicInstructions
where repeat each Content: DynamicInstructions {
    let contents: (repeat each Content)

    /// The pieces, in order.
    public init(_ contents: repeat each Content) {
        self.contents = (repeat each contents)
    }

    /// Never read.
    public var body: Never { primitiveBody() }

    func resolve(into resolution: inout InstructionsResolution) {
        for content in repeat each contents {
            resolveInstructions(content, into: &resolution)
        }
    }
}
#endif
