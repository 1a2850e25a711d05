internal import MCP

// The defended path of a bridged call: approval through the data-flow guard, redaction of
// arguments and output, and reports of what the defences did.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPBridgedTool {
    /// What the tool's output contains, for the data-flow guard.
    public var dataMarks: ToolTrust.DataMarks {
        defences.trust.marks(ofTool: serverName, server: server, origin: origin)
    }

    /// Runs a call whose arguments are valid: makes the arguments the tool will receive, asks
    /// for approval with exactly those, sends them, and returns the framed, redacted result.
    func defendedCall(_ arguments: JSONObject) async throws -> String {
        // Definitions the model was offered since the last call are what it has read.
        await monitor?.recordOffers(in: dataFlowGuard)
        var removed: [String] = []
        // Every server, in process too, gets no secret (configured, of a known shape, or one
        // the user's prompt held) and never the frame's boundary; the approver sees these very
        // arguments.
        let secrets = await dataFlowGuard.redactor(adding: defences.secrets)
        let outbound = Self.withoutBoundary(secrets.redact(arguments, kinds: &removed), frame: dataFlowGuard.frame)
        if let secret = await dataFlowGuard.screenParts(of: outbound, redactor: secrets) {
            let reason = "declined: the arguments, with what this conversation already sent, would spell out the \(secret)"
            defences.report(DefenceEvent(kind: .declined, tool: name, message: reason))
            monitor?.report(.toolCallDeclined(ToolCallDecline(tool: name, reason: reason)))
            return outputFormat.error("The call was not approved, so the tool did not run: \(reason).", toolName: name)
        }
        let request = ToolCallRequest(
            serverName: serverName, modelName: name, arguments: outbound, effects: effects, server: server, origin: origin,
            sendsArgumentsOut: sendsArgumentsOut, tool: identity)
        let (approval, asked) = await dataFlowGuard.approval(
            for: request, policy: policy, guardsDataFlow: defences.guardsDataFlow, client: client)
        if let reason = approval.denialReason {
            defences.report(DefenceEvent(kind: .declined, tool: name, message: reason))
            monitor?.report(.toolCallDeclined(ToolCallDecline(tool: name, reason: reason)))
            return outputFormat.error("The call was not approved, so the tool did not run: \(reason).", toolName: name)
        }
        if asked.concern != nil || (!effects.isEmpty && policy.approver != nil) {
            defences.report(DefenceEvent(kind: .approved, tool: name, message: "allowed (\(approval))"))
        }
        if !removed.isEmpty {
            defences.report(DefenceEvent(kind: .redacted, tool: name, message: "removed \(removed.joined(separator: ", ")) from the arguments"))
        }
        // Exactly what was approved.
        let sent = asked.arguments
        let clock = ContinuousClock()
        let started = clock.now
        monitor?.report(.toolCallStarted(ToolCallStart(
            tool: name, server: server, serverName: serverName, arguments: JSONValue.object(sent).description)))
        let format = outputFormat.limited(to: monitor?.remainingCharacters)
        let output: (text: String, isError: Bool, wasCut: Bool, error: String?)
        do {
            output = try await send(sent, format: format)
        } catch {
            monitor?.report(.toolCallFinished(ToolCallFinish(
                tool: name, duration: clock.now - started, isError: true, outputCharacters: 0, wasCut: false,
                error: Self.eventText(secrets.redact(String(describing: error)).text))))
            throw error
        }
        monitor?.consume(output.text.count)
        monitor?.report(.toolCallFinished(ToolCallFinish(
            tool: name, duration: clock.now - started, isError: output.isError, outputCharacters: output.text.count,
            wasCut: output.wasCut, error: output.error.map { Self.eventText(secrets.redact($0).text) })))
        return output.text
    }

    /// Sends the call and renders what the model reads with `format`; with the error, in a
    /// sentence, for the call's event.
    private func send(
        _ sent: JSONObject, format outputFormat: ToolOutputFormat
    ) async throws -> (text: String, isError: Bool, wasCut: Bool, error: String?) {
        let result: CallToolResult
        do {
            result = try await client.callTool(
                name: serverName, arguments: sent, timeout: timeout ?? Self.defaultTimeout, maximumResultBytes: maximumResultBytes)
        } catch let error as JSONRPCError {
            let failure = outputFormat.failure("The server rejected the call: \(error.message) (\(error.code)).", toolName: name)
            await dataFlowGuard.recordRead(tool: name, server: server, marks: dataMarks)
            return (failure.text, true, false, "the server rejected the call: \(error.message) (\(error.code))")
        } catch MCPClientError.resultTooLarge {
            // Refused while it was read: none of it reached this process whole, nor the model.
            let failure = outputFormat.failure(
                "The output was cut: the tool's result is larger than the \(maximumResultBytes) bytes this app reads for one call, "
                    + "so none of it was read. Ask for less (a narrower query, fewer items) and call \(name) again.",
                toolName: name)
            await dataFlowGuard.recordRead(tool: name, server: server, marks: dataMarks)
            return (failure.text, true, true, "the result is larger than the \(maximumResultBytes) bytes read for one call")
        }
        let rendered = outputFormat.rendered(result, toolName: name)
        await dataFlowGuard.recordRead(tool: name, server: server, marks: dataMarks)
        if rendered.redactedAnything {
            defences.report(DefenceEvent(
                kind: .redacted, tool: name, message: "removed \(rendered.kinds.joined(separator: ", ")) from the output"))
        }
        return (rendered.text, result.isError, outputFormat.wouldCut(result), result.isError ? result.text : nil)
    }

    /// An error for an event: one line, at most 300 characters.
    static func eventText(_ text: String) -> String {
        let line = String(text.map { $0.isNewline ? " " : $0 })
        return line.count > 300 ? String(line.prefix(299)) + "…" : line
    }

    /// `arguments` with the frame's boundary replaced wherever a string or a key holds it, in
    /// any case, width or spelling (see ``ToolOutputFrame/scrubbingBoundary(from:)``).
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
