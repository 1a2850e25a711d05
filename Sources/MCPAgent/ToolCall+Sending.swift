internal import MCP

// The end of the chain: the call sent to its server, the result written for the model.

extension ToolCall {
    /// Sends ``arguments`` to the server and writes the result with ``outputFormat``: framed
    /// as this tool's output, cleaned, redacted and cut to fit. A JSON-RPC error and a result
    /// over ``maximumResultBytes`` are tool errors the model reads; a transport failure, a
    /// timeout or cancellation throws.
    public func send() async throws -> ToolCallOutput {
        let result: CallToolResult
        do {
            result = try await client.callTool(
                name: toolNameOnServer, arguments: arguments, timeout: timeout, maximumResultBytes: maximumResultBytes)
        } catch let error as JSONRPCError {
            let failure = outputFormat.failure("The server rejected the call: \(error.message) (\(error.code)).", toolName: tool)
            return ToolCallOutput(
                text: failure.text, isError: true, wasCut: false, error: "the server rejected the call: \(error.message) (\(error.code))")
        } catch MCPClientError.resultTooLarge {
            // Refused while it was read: none of it reached this process whole, nor the model.
            let failure = outputFormat.failure(
                "The output was cut: the tool's result is larger than the \(maximumResultBytes) bytes this app reads for one call, "
                    + "so none of it was read. Ask for less (a narrower query, fewer items) and call \(tool) again.",
                toolName: tool)
            return ToolCallOutput(
                text: failure.text, isError: true, wasCut: true,
                error: "the result is larger than the \(maximumResultBytes) bytes read for one call")
        }
        let rendered = outputFormat.rendered(result, toolName: tool)
        if rendered.redactedAnything {
            report(DefenceEvent(kind: .redacted, tool: tool, message: "removed \(rendered.kinds.joined(separator: ", ")) from the output"))
        }
        return ToolCallOutput(
            text: rendered.text, isError: result.isError, wasCut: outputFormat.wouldCut(result), error: result.isError ? result.text : nil)
    }
}
