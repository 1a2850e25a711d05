import Foundation
import MCP
import Testing

/// Our client's roots against a tool of the official Python SDK that asks for them.
@Suite("MCPClient roots against a Python SDK server", .serialized, .timeLimit(.minutes(2)))
struct PythonRootsTests {
    @Test(
        "python_echo_server.py --roots: the tool gets our roots in each era",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment),
        arguments: [MCPClient.Handshake.version(.v2026_07_28), .version(.v2025_11_25), .auto])
    func roots(handshake: MCPClient.Handshake) async throws {
        let python = try PythonPeers.python()
        let roots = [Root(path: "/work/project", name: "Project"), Root(path: "/srv/data")]
        try await withServerProcess(
            python, arguments: [Package.interopScript("python_echo_server.py"), "--roots"], handshake: handshake, roots: roots
        ) { client in
            let first = try await client.callTool(name: "roots")
            #expect(!first.isError, "\(first.text)")
            #expect(first.text == "file:///work/project Project\nfile:///srv/data -")
            try await client.setRoots([Root(path: "/srv/other", name: "Other")])
            let second = try await client.callTool(name: "roots")
            #expect(second.text == "file:///srv/other Other")
        }
    }
}
