// ondevice-mcp-http: ondevice-mcp with MCP's Streamable HTTP transport, for remote servers
// (`--url URL`, `url` entries of `--config`), and, where Apple's FoundationModels is missing,
// a model on an OpenAI-compatible chat-completions server (`--model-url URL [--model NAME]`,
// `ONDEVICE_MCP_MODEL_URL`). ondevice-mcp hands such commands over to it, so that ondevice-mcp
// itself (and `serve`) never loads Foundation; it runs every other command the same way.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import MCP
import MCPCommandLine
import MCPHTTP
#if !canImport(FoundationModels)
import ChatCompletions
import PortableFoundationModels
#endif

/// The model server's API key, taken out of this process's environment before anything starts,
/// so that no MCP server started from here (boxed or not) inherits it.
let modelAPIKey: String? = {
    let name = CommandLineParser.modelAPIKeyVariable
    let key = ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    unsetenv(name)
    return key
}()

/// The model client: ChatCompletions where Apple's FoundationModels is missing; none where it
/// exists (chat uses the on-device model there).
let modelConnector: ModelConnector? = {
    #if canImport(FoundationModels)
    return nil
    #else
    return { url, model in
        guard let address = URL(string: url) else {
            throw ChatCompletionsError.invalidConfiguration
        }
        var configuration = ChatCompletionsConfiguration()
        // A small model can repeat itself until the context is full: a chat answer stops at
        // 1,024 tokens (the text so far, as Apple's model gives it).
        configuration.defaultOptions = GenerationOptions(maximumResponseTokens: 1024)
        if let key = modelAPIKey {
            configuration.apiKey = { key }
        }
        let connected = try await ChatCompletionsModel.connect(to: address, model: model, configuration: configuration)
        return ConnectedModel(model: connected, contextSize: connected.contextSize) { try await connected.tokenCount(for: $0) }
    }
    #endif
}()

exit(
    await OnDeviceMCPCommand.main(
        CommandLine.arguments,
        remote: { url, headers, configuration in
            guard let address = URL(string: url) else {
                throw TransportError.invalidConfiguration("'\(url)' is not a URL")
            }
            return try await MCPClient.connect(
                to: .http(address, configuration: HTTPTransportConfiguration(headers: headers)), configuration: configuration)
        },
        model: modelConnector))
