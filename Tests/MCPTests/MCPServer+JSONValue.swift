import MCP

extension MCPServer {
    /// Answers a message given as a JSON value, the way a peer reading a wire would.
    ///
    /// The value is decoded first; one that is not a JSON-RPC message gets the error response
    /// the decoder says answers it, as the server's transports send it.
    func handle(json: JSONValue) async -> JSONValue? {
        do {
            return await handle(try JSONRPCMessage(json))?.json
        } catch {
            return error.response.json
        }
    }
}
