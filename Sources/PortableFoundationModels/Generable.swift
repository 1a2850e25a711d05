// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A type that can be initialized from generated content.
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
    init(_ content: GeneratedContent) throws
}

/// A type that can be converted to generated content.
public protocol ConvertibleToGeneratedContent: InstructionsRepresentable, PromptRepresentable {
    var generatedContent: GeneratedContent { get }
}

extension ConvertibleToGeneratedContent {
    // Explicit `return`s: a witness of a `@PromptBuilder` requirement is itself a builder body otherwise.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [Self.segment(for: generatedContent)])
    }

    public var promptRepresentation: Prompt {
        return Prompt(segments: [Self.segment(for: generatedContent)])
    }

    static func segment(for content: GeneratedContent) -> Transcript.Segment {
        if case .string(let text) = content.kind { return .text(Transcript.TextSegment(content: text)) }
        return .structure(Transcript.StructuredSegment(schemaName: String(describing: Self.self), content: content))
    }
}

/// A type that the model can generate, with a schema that guides generation.
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
    associatedtype PartiallyGenerated: ConvertibleFromGeneratedContent = Self
    static var generationSchema: GenerationSchema { get }
}

extension Generable {
    public func asPartiallyGenerated() -> Self.PartiallyGenerated {
        // The partially generated form of a complete value is that value's content.
        if let partial = try? PartiallyGenerated(generatedContent) { return partial }
        if let same = self as? PartiallyGenerated { return same }
        // Only a Generable whose PartiallyGenerated type rejects the value's own content gets here.
        preconditionFailure("\(Self.self).PartiallyGenerated cannot be made from the content of a complete \(Self.self)")
    }
}

/// A type that can be used as a prompt.
public protocol PromptRepresentable {
    @PromptBuilder var promptRepresentation: Prompt { get }
}

/// A type that can be used as instructions.
public protocol InstructionsRepresentable {
    @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

// MARK: - Prompt and Instructions

/// A prompt from the person using the app to the model.
public struct Prompt: Sendable {
    var segments: [Transcript.Segment]

    init(segments: [Transcript.Segment]) { self.segments = segments }

    init<each P: PromptRepresentable>(_ components: repeat each P) {
        var segments: [Transcript.Segment] = []
        for component in repeat each components {
            segments += component.promptRepresentation.segments
        }
        self.segments = segments
    }

    public init(_ content: some PromptRepresentable) {
        self = content.promptRepresentation
    }

    public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
        self = try content()
    }
}

extension Prompt: PromptRepresentable {
    public var promptRepresentation: Prompt { return self }
}

/// Instructions that define the model's intended behaviour.
public struct Instructions: Sendable {
    var segments: [Transcript.Segment]

    init(segments: [Transcript.Segment]) { self.segments = segments }

    init<each I: InstructionsRepresentable>(_ components: repeat each I) {
        var segments: [Transcript.Segment] = []
        for component in repeat each components {
            segments += component.instructionsRepresentation.segments
        }
        self.segments = segments
    }

    public init(_ content: some InstructionsRepresentable) {
        self = content.instructionsRepresentation
    }

    public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
        self = try content()
    }
}

extension Instructions: InstructionsRepresentable {
    public var instructionsRepresentation: Instructions { return self }
}

@resultBuilder
public struct PromptBuilder {
    public static func buildBlock<each P: PromptRepresentable>(_ components: repeat each P) -> Prompt {
        Prompt(repeat each components)
    }
    public static func buildArray(_ prompts: [some PromptRepresentable]) -> Prompt {
        Prompt(segments: prompts.flatMap { $0.promptRepresentation.segments })
    }
    public static func buildEither(first component: some PromptRepresentable) -> Prompt {
        component.promptRepresentation
    }
    public static func buildEither(second component: some PromptRepresentable) -> Prompt {
        component.promptRepresentation
    }
    public static func buildOptional(_ component: Prompt?) -> Prompt {
        component ?? Prompt(segments: [])
    }
    public static func buildLimitedAvailability(_ prompt: some PromptRepresentable) -> Prompt {
        prompt.promptRepresentation
    }
    public static func buildExpression<P: PromptRepresentable>(_ expression: P) -> P {
        expression
    }
    public static func buildExpression(_ expression: Prompt) -> Prompt {
        expression
    }
}

@resultBuilder
public struct InstructionsBuilder {
    public static func buildBlock<each I: InstructionsRepresentable>(_ components: repeat each I) -> Instructions {
        Instructions(repeat each components)
    }
    public static func buildArray(_ instructions: [some InstructionsRepresentable]) -> Instructions {
        Instructions(segments: instructions.flatMap { $0.instructionsRepresentation.segments })
    }
    public static func buildEither(first component: some InstructionsRepresentable) -> Instructions {
        component.instructionsRepresentation
    }
    public static func buildEither(second component: some InstructionsRepresentable) -> Instructions {
        component.instructionsRepresentation
    }
    public static func buildOptional(_ instructions: Instructions?) -> Instructions {
        instructions ?? Instructions(segments: [])
    }
    public static func buildLimitedAvailability(_ instructions: some InstructionsRepresentable) -> Instructions {
        instructions.instructionsRepresentation
    }
    public static func buildExpression<I: InstructionsRepresentable>(_ expression: I) -> I {
        expression
    }
    public static func buildExpression(_ expression: Instructions) -> Instructions {
        expression
    }
}

// MARK: - Built-in conformances

func conversionFailure(_ type: Any.Type, _ content: GeneratedContent) -> LanguageModelSession.GenerationError {
    GeneratedContent.decodingFailure("cannot make \(type) from \(content.kindName): \(content.jsonString)")
}

extension String: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(node: .string(StringConstraints()), defs: []) }
    public init(_ content: GeneratedContent) throws {
        guard case .string(let text) = content.kind else { throw conversionFailure(String.self, content) }
        self = text
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(self)) }
    public var promptRepresentation: Prompt { return Prompt(segments: [.text(Transcript.TextSegment(content: self))]) }
    public var instructionsRepresentation: Instructions { return Instructions(segments: [.text(Transcript.TextSegment(content: self))]) }
}

extension Bool: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(node: .boolean, defs: []) }
    public init(_ content: GeneratedContent) throws {
        guard case .bool(let flag) = content.kind else { throw conversionFailure(Bool.self, content) }
        self = flag
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .bool(self)) }
}

extension Int: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(node: .integer(NumberConstraints()), defs: []) }
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind, let value = Int(exactly: number) else {
            throw conversionFailure(Int.self, content)
        }
        self = value
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Double: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(node: .number(NumberConstraints()), defs: []) }
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind else { throw conversionFailure(Double.self, content) }
        self = number
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(self)) }
}

extension Float: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(node: .number(NumberConstraints()), defs: []) }
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind else { throw conversionFailure(Float.self, content) }
        self = Float(number)
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Decimal: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(node: .number(NumberConstraints()), defs: []) }
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind else { throw conversionFailure(Decimal.self, content) }
        self = Decimal(string: formatJSONNumber(number)) ?? Decimal(number)
    }
    public var generatedContent: GeneratedContent {
        GeneratedContent(kind: .number(Double(description) ?? 0))
    }
}

extension Never: Generable {
    public static var generationSchema: GenerationSchema {
        GenerationSchema(node: .anyOf(name: "Never", description: nil, choices: []), defs: [])
    }
    public init(_ content: GeneratedContent) throws { throw conversionFailure(Never.self, content) }
    public var generatedContent: GeneratedContent { switch self {} }
}

extension Array: PromptRepresentable where Element: PromptRepresentable {
    public var promptRepresentation: Prompt { return Prompt(segments: flatMap { $0.promptRepresentation.segments }) }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: flatMap { $0.instructionsRepresentation.segments })
    }
}

extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .array(map { $0.generatedContent })) }
}

extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws {
        guard case .array(let elements) = content.kind else { throw conversionFailure(Array.self, content) }
        self = try elements.map { try Element($0) }
    }
}

extension Array: Generable where Element: Generable {
    public typealias PartiallyGenerated = [Element.PartiallyGenerated]
    public static var generationSchema: GenerationSchema {
        let item = Element.generationSchema
        return GenerationSchema(node: .array(item: item.node, minimum: nil, maximum: nil), defs: item.defs)
    }
}

extension Optional: PromptRepresentable where Wrapped: ConvertibleToGeneratedContent {
    public var promptRepresentation: Prompt {
        switch self {
        case .some(let value): return value.promptRepresentation
        case .none: return Prompt(segments: [.text(Transcript.TextSegment(content: "null"))])
        }
    }
}

extension Optional: InstructionsRepresentable where Wrapped: ConvertibleToGeneratedContent {
    public var instructionsRepresentation: Instructions {
        switch self {
        case .some(let value): return value.instructionsRepresentation
        case .none: return Instructions(segments: [.text(Transcript.TextSegment(content: "null"))])
        }
    }
}

extension Optional: ConvertibleToGeneratedContent where Wrapped: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent {
        switch self {
        case .some(let value): value.generatedContent
        case .none: GeneratedContent(kind: .null)
        }
    }
}
#endif
