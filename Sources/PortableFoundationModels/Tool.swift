// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A tool that the model can call to gather information or take actions.
///
/// The session may run several calls at once, so `call(arguments:)` must be safe to run concurrently.
public protocol Tool<Arguments, Output>: Sendable {
    associatedtype Output: PromptRepresentable
    associatedtype Arguments: ConvertibleFromGeneratedContent

    var name: String { get }
    var description: String { get }
    var parameters: GenerationSchema { get }
    var includesSchemaInInstructions: Bool { get }

    @concurrent func call(arguments: Self.Arguments) async throws -> Self.Output
}

extension Tool {
    /// The type's name, as in Apple's default.
    public var name: String { String(describing: Self.self) }
    public var includesSchemaInInstructions: Bool { true }
}

extension Tool where Self.Arguments: Generable {
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool where Self.Arguments == String {
    @available(*, unavailable, message: "'Tool' that uses 'String' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Int {
    @available(*, unavailable, message: "'Tool' that uses 'Int' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Double {
    @available(*, unavailable, message: "'Tool' that uses 'Double' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Float {
    @available(*, unavailable, message: "'Tool' that uses 'Float' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Decimal {
    @available(*, unavailable, message: "'Tool' that uses 'Decimal' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Bool {
    @available(*, unavailable, message: "'Tool' that uses 'Bool' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

#endif
