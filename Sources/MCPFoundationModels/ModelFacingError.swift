public import MCP

/// An error a tool throws for the model to read and act on.
///
/// The model reads ``modelMessage`` as the tool's error ("no note is called 'Trip'; call
/// notes_list to see the titles"). Any other error a handler throws is an internal matter of
/// the app: wrapped with ``MCP/MCPTool/modelFacingErrors(report:)``, the model reads only
/// that the tool failed, and the app receives the full error in a ``DefenceEvent``.
public protocol ModelFacingError: Error {
    /// What went wrong and what the model can do about it, in a sentence or two.
    var modelMessage: String { get }
}

/// A ``ModelFacingError`` with a message.
public struct ToolUsageError: ModelFacingError, Hashable, CustomStringConvertible {
    public var modelMessage: String

    public init(_ modelMessage: String) {
        self.modelMessage = modelMessage
    }

    public var description: String { modelMessage }
}

extension MCPTool {
    /// This tool with its handler's errors kept from the model unless they are meant for it.
    ///
    /// A ``ModelFacingError`` becomes a tool error with its ``ModelFacingError/modelMessage``;
    /// any other error becomes `The tool failed because of an internal error in the app. Try
    /// again later, or answer without it.` and is passed whole to `report`. Cancellation
    /// passes through.
    ///
    /// - Parameters:
    ///   - redactor: Secrets removed from the messages (the model's and the event's); the
    ///     event's ``DefenceEvent/error`` is the error itself, for the app alone.
    ///   - report: Receives every error the handler threw, as a ``DefenceEvent`` of kind
    ///     ``DefenceEvent/Kind/toolFailed``.
    public func modelFacingErrors(
        redactor: SecretRedactor = SecretRedactor(), report: @escaping @Sendable (DefenceEvent) -> Void = { _ in }
    ) -> MCPTool {
        var tool = self
        let handler = self.handler
        let name = self.name
        tool.handler = { arguments, context in
            do {
                return try await handler(arguments, context)
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as any ModelFacingError {
                let message = redactor.redact(error.modelMessage).text
                report(DefenceEvent(kind: .toolFailed, tool: name, message: message, error: error))
                return .error(message)
            } catch {
                let message = redactor.redact(String(describing: error)).text
                report(DefenceEvent(kind: .toolFailed, tool: name, message: message, error: error))
                return .error(Self.internalFailure)
            }
        }
        return tool
    }

    /// What the model reads when a handler fails for a reason not meant for it.
    public static let internalFailure =
        "The tool failed because of an internal error in the app. Try again later, or answer without it."
}
