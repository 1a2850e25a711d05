// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Dynamic instructions with nothing in them (an empty body).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct EmptyDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions, Sendable {
    /// Nothing.
    public init() {}

    /// Never read.
    public var body: Never { primitiveBody() }

    func resolve(into resolution: inout InstructionsResolution) {}
}
#endif
