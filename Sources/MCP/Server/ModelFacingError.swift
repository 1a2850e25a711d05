/// An error a tool throws for the model (or whoever calls the tool) to read and act on.
///
/// ``MCPServer`` sends ``modelMessage`` as the tool's error result ("no note is called
/// 'Trip'; call notes_list to see the titles"). Any other error a handler throws is an
/// internal matter of the app: by default the caller reads only that the tool failed
/// (``MCPServer/internalFailureMessage``), and the app receives the whole error through the
/// server's `onToolFailure` hook. See ``ToolErrorDisclosure``.
public protocol ModelFacingError: Error {
    /// What went wrong and what the model can do about it, in a sentence or two.
    var modelMessage: String { get }
}

/// A ``ModelFacingError`` with a message.
///
/// ```swift
/// guard let note = notes[title] else {
///     throw ToolUsageError("No note is called '\(title)'; call notes_list to see the titles.")
/// }
/// ```
public struct ToolUsageError: ModelFacingError, Hashable, CustomStringConvertible {
    public var modelMessage: String

    public init(_ modelMessage: String) {
        self.modelMessage = modelMessage
    }

    public var description: String { modelMessage }
}
