// swift-format-ignore-file: OrderedImports
// The README's Swift snippets, as they compile and run: each snippet is in this target word
// for word (`ReadmeSnippetTests` checks that), and `ReadmeExampleTests` runs it.
//
// This file is the README's first example, as an app's main.swift would hold it; the other
// snippets are functions in the files beside it, called at the end.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// README: serve
import MCP

// The app's own tools, served in process: they are its code, so the bridge trusts them.
let notes = ["Lisbon: book the tram tour", "Dentist on Tuesday at 10:00"]
let server = MCPServer(name: "Notes", version: "1.0")
try await server.register(
    name: "notes_search",
    description: "Search the user's notes",
    inputSchema: ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]]
) { arguments, _ in
    let query = arguments["query"]?.stringValue ?? ""
    return .text(notes.filter { $0.contains(query) }.joined(separator: "\n"))
}

let client = try await MCPClient.connect(to: server)  // no transport, no encoding
for tool in try await client.listTools() { print(tool.name) }
let result = try await client.callTool(name: "notes_search", arguments: ["query": "Lisbon"])
print(result.text)  // result.isError for tool failures
// README: end

// The other snippets, run where what they need is there.
try await typedToolExample()
try await annotatedToolExample()
let environment = ProcessInfo.processInfo.environment
if environment["README_EXAMPLE_PROCESS"] != nil {
    print(try await lisbonTime())
}
if let address = environment["README_EXAMPLE_HTTP_URL"], let url = URL(string: address) {
    print(try await remoteTools(at: url, token: environment["README_EXAMPLE_HTTP_TOKEN"] ?? "none"))
}
await client.close()
