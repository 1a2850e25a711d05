// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// What the model sees, declared: instructions, tools and nested dynamic instructions,
/// re-evaluated before every model request.
///
/// A session built with dynamic instructions (`LanguageModelSession(model:dynamicInstructions:history:)`
/// or a `LanguageModelSession.Profile`) evaluates `body` before each request to its model —
/// the first request of a response and the follow-up after each round of tool outputs — so the
/// instructions and the tools the model may call follow the app's state, mid-response too.
///
/// ```swift
/// struct Assistant: DynamicInstructions {
///     var expert: Bool
///     @SessionProperty(\.history) var history
///
///     var body: some DynamicInstructions {
///         Instructions("You help with research. \(history.count) entries so far.")
///         SearchTool()
///         if expert { CalculatorTool() }
///     }
/// }
/// ```
///
/// Write `Tool` values (or an `[any Tool]`) directly in a body: the builder lifts them (a tool
/// is not itself `DynamicInstructions`). Use `ForEach` for collections and `if`/`else` for
/// conditions. The instructions' text segments are joined in body order; a tool listed twice
/// (by name) counts once, where it first appears.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public protocol DynamicInstructions {
    /// The type of the body.
    associatedtype Body: DynamicInstructions

    /// The instructions and tools, evaluated before every model request.
    @DynamicInstructionsBuilder var body: Self.Body { get }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension DynamicInstructions {
    /// Dynamic instructions for each element of a collection.
    public typealias ForEach = DynamicInstructionsForEach

    /// A property wrapper that provides access to a session property from dynamic instructions.
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Instructions: DynamicInstructions {
    /// The instructions' text.
    public var body: some DynamicInstructions {
        InstructionSegments(segments: segments)
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Optional: DynamicInstructions where Wrapped: DynamicInstructions {
    /// The wrapped instructions, or nothing.
    public var body: some DynamicInstructions {
        switch self {
        case .some(let wrapped): ConditionalDynamicInstructions<Wrapped, EmptyDynamicInstructions>(.trueContent(wrapped))
        case .none: ConditionalDynamicInstructions<Wrapped, EmptyDynamicInstructions>(.falseContent(EmptyDynamicInstructions()))
        }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Never: DynamicInstructions {
    /// Never evaluated: there is no value of `Never`.
    public var body: Never { self }
}

// MARK: - Evaluation

/// What evaluating dynamic instructions gives: the instructions' segments and the tools, in body
/// order.
struct InstructionsResolution {
    var segments: [Transcript.Segment] = []
    var tools: [any Tool] = []
    private var toolNames: Set<String> = []

    mutating func add(_ tool: any Tool) {
        guard toolNames.insert(tool.name).inserted else { return }
        tools.append(tool)
    }
}

/// Dynamic instructions that the session evaluates itself instead of reading a body.
protocol PrimitiveDynamicInstructions {
    func resolve(into resolution: inout InstructionsResolution)
}

extension PrimitiveDynamicInstructions {
    /// The body of a primitive, which the session never reads.
    func primitiveBody() -> Never {
        preconditionFailure("\(Self.self) is evaluated by the session; its body is never read.")
    }
}

/// Evaluates `instructions` (and every body it leads to) into `resolution`.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
func resolveInstructions<D: DynamicInstructions>(_ instructions: D, into resolution: inout InstructionsResolution) {
    if let primitive = instructions as? any PrimitiveDynamicInstructions {
        primitive.resolve(into: &resolution)
        return
    }
    resolveInstructions(instructions.body, into: &resolution)
}

/// The text of an `Instructions` value.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
struct InstructionSegments: DynamicInstructions, PrimitiveDynamicInstructions {
    let segments: [Transcript.Segment]
    var body: Never { primitiveBody() }

    func resolve(into resolution: inout InstructionsResolution) {
        resolution.segments += segments
    }
}

/// Tools written in a body.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
struct ToolInstructions: DynamicInstructions, PrimitiveDynamicInstructions {
    let tools: [any Tool]
    var body: Never { primitiveBody() }

    func resolve(into resolution: inout InstructionsResolution) {
        for tool in tools { resolution.add(tool) }
    }
}
#endif
