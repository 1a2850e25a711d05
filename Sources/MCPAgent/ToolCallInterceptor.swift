/// One step a tool call goes through on its way to the server and back: a defence, a log, a
/// check of the app's own.
///
/// An interceptor gets the call as the steps before it left it. It passes the call on with
/// `next` (changed or not) and may change what comes back, or answers the call itself
/// without calling `next` (a declined call is a ``ToolCallOutput`` with a tool error the model
/// reads). Throw only for what should fail the model's turn (a cancelled task, a lost
/// connection).
///
/// ```swift
/// struct AuditLog: ToolCallInterceptor {
///     let log: @Sendable (String) -> Void
///     func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
///         log("\(call.tool) on \(call.server)")
///         return try await next(call)
///     }
/// }
/// var defences = Defences()
/// defences.interceptors.append(AuditLog { print($0) })  // after the defences: sees approved calls
/// ```
public protocol ToolCallInterceptor: Sendable {
    /// Handles `call`: passes it on with `next`, or answers it.
    func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput
}

/// The rest of the chain after an interceptor: calling it passes the call on.
public struct ToolCallNext: Sendable {
    let chain: ToolCallChain
    let position: Int

    /// Runs the steps after the current one, and at the end sends the call to its server.
    public func callAsFunction(_ call: ToolCall) async throws -> ToolCallOutput {
        try await chain.run(call, from: position)
    }
}
