public import MCPCore

/// A tool handler that threw, as ``MCPServer`` reports it to the app.
///
/// The caller of the tool read ``messageSent``; ``error`` is the whole error, for the app
/// alone (a log, a crash reporter, a diagnostic screen).
public struct ToolFailure: Sendable, CustomStringConvertible {
    /// The tool whose handler threw.
    public var tool: String
    /// The `tools/call` request's id (absent for a call made without a request).
    public var requestID: RequestID?
    /// The error the handler threw.
    public var error: any Error
    /// The text the caller received in the tool's error result.
    public var messageSent: String

    public init(tool: String, requestID: RequestID?, error: any Error, messageSent: String) {
        self.tool = tool
        self.requestID = requestID
        self.error = error
        self.messageSent = messageSent
    }

    public var description: String { "tool \(tool) failed: \(String(describing: error))" }
}

/// How much of a handler's error ``MCPServer`` puts in the tool's error result.
///
/// A struct with static members, so that new rules can be added without breaking a `switch`.
public struct ToolErrorDisclosure: Hashable, Sendable, CustomStringConvertible {
    private enum Rule: Hashable, Sendable {
        case modelFacing
        case everyError
    }

    private let rule: Rule

    private init(_ rule: Rule) {
        self.rule = rule
    }

    /// The default: a ``ModelFacingError`` sends its ``ModelFacingError/modelMessage``; any
    /// other error sends ``MCPServer/internalFailureMessage``, so that paths, queries and
    /// other internals of the app never reach the model or a remote client.
    public static let modelFacing = ToolErrorDisclosure(.modelFacing)

    /// Every error sends its `String(describing:)`: for development, or for servers whose
    /// errors are all written for their callers. A ``ModelFacingError`` still sends its
    /// ``ModelFacingError/modelMessage``.
    public static let everyError = ToolErrorDisclosure(.everyError)

    public var description: String {
        switch rule {
        case .modelFacing: "modelFacing"
        case .everyError: "everyError"
        }
    }

    /// The text a caller reads for `error`.
    func message(for error: any Error) -> String {
        if let error = error as? any ModelFacingError { return error.modelMessage }
        switch rule {
        case .modelFacing: return MCPServer.internalFailureMessage
        case .everyError: return String(describing: error)
        }
    }
}

/// What a server does with its handlers' errors: what it sends, and whom it tells.
struct ToolFailureHandling: Sendable {
    var disclosure: ToolErrorDisclosure
    var report: (@Sendable (ToolFailure) -> Void)?

    /// The error result for `error`, thrown by `tool`'s handler, after reporting it.
    func result(for error: any Error, tool: String, requestID: RequestID?) -> CallToolResult {
        let message = disclosure.message(for: error)
        report?(ToolFailure(tool: tool, requestID: requestID, error: error, messageSent: message))
        return .error(message)
    }
}
