// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Type-erased dynamic instructions.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct AnyDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions {
    let base: any DynamicInstructions

    /// Erases `dynamicInstructions`.
    public init(_ dynamicInstructions: any DynamicInstructions) {
        base = dynamicInstructions
    }

    /// Erases `dynamicInstructions`.
    public init(erasing dynamicInstructions: some DynamicInstructions) {
        base = dynamicInstructions
    }

    /// Never read: the session evaluates the erased instructions.
    public var body: Never { primitiveBody() }

    func resolve(into resolution: inout InstructionsResolution) {
        resolveInstructions(base, into: &resolution)
    }
}
#endif
