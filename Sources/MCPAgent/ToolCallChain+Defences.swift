internal import MCPCore

// The defences as interceptors: the standard chain's steps, in its order.

extension ToolCallChain {
    /// Records the tool definitions the model was offered since the last call in the
    /// conversation's ``DataFlowGuard``, before anything is approved.
    public struct RecordingOffers: ToolCallInterceptor {
        public init() {}

        public func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
            await call.monitor?.recordOffers(in: call.dataFlowGuard)
            return try await next(call)
        }
    }

    /// Answers a call that repeats, with the same arguments, a call of the same tool earlier
    /// in the turn with what that call gave the model, without running it again.
    ///
    /// A small model in a loop asks for the same call round after round; a write then runs
    /// again each time (SmolLM2-135M added the same note four times for "Add a note: buy oat
    /// milk"), and a person would be asked again. The repeat is answered with the earlier
    /// output as it was (a note saying the tool did not run again became SmolLM2's answer) and
    /// reported to the app as a ``DefenceEvent/Kind/repeated`` event. Turns are the monitor's
    /// (``ToolCallMonitor``): a call without a monitor always runs. Calls made at the same
    /// time (parallel calls in one round) both run: only a finished call is remembered.
    public struct SkippingRepeats: ToolCallInterceptor {
        public init() {}

        public func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
            guard let monitor = call.monitor else { return try await next(call) }
            let key = ToolCallMonitor.CallKey(server: call.server, tool: call.toolNameOnServer, arguments: call.arguments)
            if let earlier = monitor.earlierOutput(of: key) {
                call.report(
                    DefenceEvent(kind: .repeated, tool: call.tool, message: "not run again: the same call already ran in this turn"))
                return earlier
            }
            let output = try await next(call)
            monitor.remember(output, of: key)
            return output
        }
    }

    /// Removes secrets (configured, of a known shape, or ones the user's prompts held) and
    /// the output frame's boundary from the arguments, for every server, in process too; the
    /// approver sees these very arguments.
    public struct RedactingArguments: ToolCallInterceptor {
        public init() {}

        public func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
            var call = call
            call.secrets = await call.dataFlowGuard.redactor(adding: call.defences.secrets)
            var removed: [String] = []
            let redacted = call.secrets.redact(call.arguments, kinds: &removed)
            call.arguments = Self.withoutBoundary(redacted, frame: call.dataFlowGuard.frame)
            call.redactedKinds += removed
            return try await next(call)
        }

        /// `arguments` with the frame's boundary replaced wherever a string or a key holds it,
        /// in any case, width or spelling (see ``ToolOutputFrame/scrubbingBoundary(from:)``).
        static func withoutBoundary(_ arguments: JSONObject, frame: ToolOutputFrame) -> JSONObject {
            func scrub(_ value: JSONValue) -> JSONValue {
                switch value {
                case .string(let text): .string(frame.scrubbingBoundary(from: text))
                case .array(let items): .array(items.map(scrub))
                case .object(let object): .object(withoutBoundary(object, frame: frame))
                default: value
                }
            }
            var result = JSONObject()
            for (key, value) in arguments { result[frame.scrubbingBoundary(from: key)] = scrub(value) }
            return result
        }
    }

    /// Declines a call whose arguments, with what the conversation already sent, would spell
    /// out a configured or learned secret part by part.
    public struct ScreeningParts: ToolCallInterceptor {
        public init() {}

        public func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
            if let secret = await call.dataFlowGuard.screenParts(of: call.arguments, redactor: call.secrets) {
                return call.declined("declined: the arguments, with what this conversation already sent, would spell out the \(secret)")
            }
            return try await next(call)
        }
    }

    /// Asks the ``ToolPolicy`` through the conversation's ``DataFlowGuard`` (which holds calls
    /// for a person once the conversation read private data or untrusted content); declines
    /// the call when they do not approve it, and passes on exactly the arguments approved.
    public struct Approving: ToolCallInterceptor {
        public init() {}

        public func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
            let request = ToolCallRequest(
                toolNameOnServer: call.toolNameOnServer, modelName: call.tool, arguments: call.arguments, effects: call.effects,
                server: call.server, origin: call.origin, sendsArgumentsOut: call.sendsArgumentsOut, tool: call.identity)
            let (approval, asked) = await call.dataFlowGuard.approval(
                for: request, policy: call.policy, guardsDataFlow: call.defences.guardsDataFlow, client: call.client)
            if let reason = approval.denialReason {
                return call.declined(reason)
            }
            if asked.concern != nil || (!call.effects.isEmpty && call.policy.approver != nil) {
                call.report(DefenceEvent(kind: .approved, tool: call.tool, message: "allowed (\(approval))"))
            }
            var approved = call
            approved.arguments = asked.arguments
            return try await next(approved)
        }
    }

    /// Reports the call: the secrets removed from its arguments, its start and its end (with
    /// its duration, output size and error); limits its output to what the turn has left.
    public struct Reporting: ToolCallInterceptor {
        public init() {}

        public func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
            if !call.redactedKinds.isEmpty {
                call.report(
                    DefenceEvent(
                        kind: .redacted, tool: call.tool,
                        message: "removed \(call.redactedKinds.joined(separator: ", ")) from the arguments"))
            }
            let clock = ContinuousClock()
            let started = clock.now
            call.report(
                .toolCallStarted(
                    ToolCallStart(
                        tool: call.tool, server: call.server, toolNameOnServer: call.toolNameOnServer,
                        arguments: JSONValue.object(call.arguments).description)))
            var limited = call
            limited.outputFormat = call.outputFormat.limited(to: call.monitor?.remainingCharacters)
            let output: ToolCallOutput
            do {
                output = try await next(limited)
            } catch {
                call.report(
                    .toolCallFinished(
                        ToolCallFinish(
                            tool: call.tool, duration: clock.now - started, isError: true, outputCharacters: 0, wasCut: false,
                            error: Self.eventText(call.secrets.redact(String(describing: error)).text))))
                throw error
            }
            call.monitor?.consume(output.text.count)
            call.report(
                .toolCallFinished(
                    ToolCallFinish(
                        tool: call.tool, duration: clock.now - started, isError: output.isError, outputCharacters: output.text.count,
                        wasCut: output.wasCut, error: output.error.map { Self.eventText(call.secrets.redact($0).text) })))
            return output
        }

        /// An error for an event: one line, at most 300 characters.
        static func eventText(_ text: String) -> String {
            let line = String(text.map { $0.isNewline ? " " : $0 })
            return line.count > 300 ? String(line.prefix(299)) + "…" : line
        }
    }

    /// Records in the conversation's ``DataFlowGuard`` that the model read the tool's output
    /// (private data, untrusted content, as ``ToolTrust`` marks the tool), whenever the call
    /// gives the model an output (an error result, a rejection or a refusal too).
    public struct RecordingReads: ToolCallInterceptor {
        public init() {}

        public func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
            let output = try await next(call)
            await call.dataFlowGuard.recordRead(tool: call.tool, server: call.server, marks: call.dataMarks)
            return output
        }
    }
}
