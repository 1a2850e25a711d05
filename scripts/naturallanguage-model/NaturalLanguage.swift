// The parts of Apple's NaturalLanguage framework that MCPAgent uses, declared as Apple's
// documentation declares them (NLLanguage, NLEmbedding.sentenceEmbedding(for:),
// NLEmbedding.vector(for:)), so that scripts/check-naturallanguage.sh can type-check MCPAgent's
// NaturalLanguage code on Linux. Declarations only: nothing here embeds anything, and nothing
// here is built into the package.
public struct NLLanguage: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let english = NLLanguage(rawValue: "en")
}

open class NLEmbedding {
    open class func sentenceEmbedding(for language: NLLanguage) -> NLEmbedding? { nil }
    open func vector(for string: String) -> [Double]? { nil }
}
