// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Builds dynamic instructions from instructions, tools, nested dynamic instructions, `if`,
/// `if`/`else`, optionals and `ForEach`.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
@resultBuilder
public struct DynamicInstructionsBuilder {
    /// A tool written in a body: the model may call it.
    public static func buildExpression<T>(_ expression: T) -> some DynamicInstructions where T: Tool {
        ToolInstructions(tools: [expression])
    }

    /// Dynamic instructions written in a body.
    public static func buildExpression<T>(_ expression: T) -> T where T: DynamicInstructions {
        expression
    }

    /// Tools written in a body as an array.
    public static func buildExpression(_ tools: [any Tool]) -> some DynamicInstructions {
        ToolInstructions(tools: tools)
    }

    /// Several pieces, in order.
    @_disfavoredOverload
    public static func buildBlock<each Content>(_ contents: repeat each Content) -> TupleDynamicInstructions<repeat each Content>
    where repeat each Content: DynamicInstructions {
        TupleDynamicInstructions(repeat each contents)
    }

    /// One piece.
    public static func buildBlock<T>(_ content: T) -> T where T: DynamicInstructions {
        content
    }

    /// No piece.
    public static func buildBlock() -> EmptyDynamicInstructions {
        EmptyDynamicInstructions()
    }

    /// The `if` branch of an `if`/`else`.
    public static func buildEither<TrueContent, FalseContent>(
        first content: TrueContent
    ) -> ConditionalDynamicInstructions<TrueContent, FalseContent>
    where TrueContent: DynamicInstructions, FalseContent: DynamicInstructions {
        ConditionalDynamicInstructions(.trueContent(content))
    }

    /// The `else` branch of an `if`/`else`.
    public static func buildEither<TrueContent, FalseContent>(
        second content: FalseContent
    ) -> ConditionalDynamicInstructions<TrueContent, FalseContent>
    where TrueContent: DynamicInstructions, FalseContent: DynamicInstructions {
        ConditionalDynamicInstructions(.falseContent(content))
    }

    /// An `if` without `else`.
    public static func buildOptional<Content>(_ content: Content?) -> Content? where Content: DynamicInstructions {
        content
    }

    /// An `if #available` block.
    public static func buildLimitedAvailability(_ content: some DynamicInstructions) -> AnyDynamicInstructions {
        AnyDynamicInstructions(erasing: content)
    }
}
#endif
