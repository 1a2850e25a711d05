// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// One of two pieces of dynamic instructions (an `if`/`else`).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct ConditionalDynamicInstructions<TrueContent, FalseContent>: DynamicInstructions, PrimitiveDynamicInstructions
where TrueContent: DynamicInstructions, FalseContent: DynamicInstructions {
    /// Which piece.
    public enum Branch {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let branch: Branch

    /// The piece of `branch`.
    public init(_ branch: ConditionalDynamicInstructions<TrueContent, FalseContent>.Branch) {
        self.branch = branch
    }

    /// Never read.
    public var body: Never { primitiveBody() }

    func resolve(into resolution: inout InstructionsResolution) {
        switch branch {
        case .trueContent(let content): resolveInstructions(content, into: &resolution)
        case .falseContent(let content): resolveInstructions(content, into: &resolution)
        }
    }
}
#endif
