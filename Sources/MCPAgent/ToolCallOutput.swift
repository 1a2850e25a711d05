/// What a tool call gives the model, and what its events say about it.
public struct ToolCallOutput: Hashable, Sendable {
    /// What the model reads.
    public var text: String
    /// Whether the model reads an error (an `isError` result, a rejection, a declined call).
    public var isError: Bool
    /// Whether the output was cut to fit.
    public var wasCut: Bool
    /// What went wrong, in a sentence, for the call's event; `nil` when nothing did.
    public var error: String?

    public init(text: String, isError: Bool = false, wasCut: Bool = false, error: String? = nil) {
        self.text = text
        self.isError = isError
        self.wasCut = wasCut
        self.error = error
    }
}
