import Foundation
import OnDeviceMCPTestSupport

/// llama.cpp's server with SmolLM2-135M-Instruct (`Tests/Interop/model/llama_server.py`), on a
/// free loopback port for the length of a test.
enum ModelServer {
    /// Whether the model can run: the server is installed in `.venv`, or CI (where its absence must fail).
    static var enabled: Bool {
        if let python = HTTPPeer.python {
            let server = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("llama-cpp-server").path
            if FileManager.default.isExecutableFile(atPath: server) { return true }
        }
        guard let ci = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !ci.isEmpty && ci != "0" && ci.lowercased() != "false"
    }

    /// Runs `body` with the server's root URL, stopping the server after; `serverArguments` go
    /// to `llama-server` itself (`--temp 0`, `--n-predict 128`: defaults for requests that set none).
    static func with<Result: Sendable>(
        contextSize: Int = 4096, nativeToolCalls: Bool = false, serverArguments: [String] = [], _ body: (URL) async throws -> Result
    ) async throws -> Result {
        var arguments = ["--ctx-size", String(contextSize)]
        if nativeToolCalls { arguments.append("--jinja") }
        if !serverArguments.isEmpty { arguments += ["--"] + serverArguments }
        return try await HTTPPeer.with("llama_server.py", arguments, directory: "Tests/Interop/model") { peer in
            try await body(try peer.url(""))
        }
    }
}
