/// The interceptors a tool call goes through, in order, before it is sent to its server.
///
/// The ``standard`` chain is the defences, in this order:
/// 1. ``RecordingOffers``: the tool definitions the model was offered since the last call
///    count as read (an untrusted server's definitions are untrusted content);
/// 2. ``SkippingRepeats``: a call that repeats one made earlier in the turn (same tool, same
///    arguments) gets that call's output and does not run again;
/// 3. ``RedactingArguments``: secrets (configured, of a known shape, or held by the user's
///    prompts) and the output frame's boundary are removed from the arguments, for every
///    server;
/// 4. ``ScreeningParts``: a call whose arguments, with what the conversation already sent,
///    would spell out a secret is declined;
/// 5. ``Approving``: the ``ToolPolicy`` and the ``DataFlowGuard`` approve the call, or it is
///    declined; the server receives exactly the arguments approved;
/// 6. ``Reporting``: the call's events (arguments redacted, started, finished), and its output
///    limited to what the turn has left;
/// 7. ``RecordingReads``: what the tool's output contains counts as read.
///
/// Then the call is sent, and its result framed and redacted (``ToolOutputFormat``).
///
/// An app inserts its own interceptor where it should run: first, to see calls as the model
/// made them; last, to see exactly what a server receives.
public struct ToolCallChain: Sendable {
    /// The interceptors, in the order a call goes through them.
    public var interceptors: [any ToolCallInterceptor]

    public init(_ interceptors: [any ToolCallInterceptor]) {
        self.interceptors = interceptors
    }

    /// The defences, in their order.
    public static let standard = ToolCallChain([
        RecordingOffers(), SkippingRepeats(), RedactingArguments(), ScreeningParts(), Approving(), Reporting(), RecordingReads(),
    ])

    /// Adds `interceptor` at the end, after the defences.
    public mutating func append(_ interceptor: some ToolCallInterceptor) {
        interceptors.append(interceptor)
    }

    /// Adds `interceptor` at `index` (0: before every other step).
    public mutating func insert(_ interceptor: some ToolCallInterceptor, at index: Int) {
        interceptors.insert(interceptor, at: min(max(0, index), interceptors.count))
    }

    /// Runs `call` through every interceptor and sends it.
    public func run(_ call: ToolCall) async throws -> ToolCallOutput {
        try await run(call, from: 0)
    }

    /// Runs `call` through the interceptors from `position` on, then sends it.
    func run(_ call: ToolCall, from position: Int) async throws -> ToolCallOutput {
        guard position < interceptors.count else { return try await call.send() }
        return try await interceptors[position].intercept(call, next: ToolCallNext(chain: self, position: position + 1))
    }
}
