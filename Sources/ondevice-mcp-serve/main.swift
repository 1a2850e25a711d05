import MCP
import MCPPlatform
import OnDeviceMCPExamples

// ondevice-mcp-serve: `ondevice-mcp serve` alone, for where a server's idle memory matters.
//
// It links only MCP and the example tools (no HTTP client, no model client), so Foundation
// proper and ICU stay out of the process. `ondevice-mcp` has every command, serve included.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let usage = """
    Usage: ondevice-mcp-serve [--data-dir DIR] [--root DIR]...

    Serves the example tools (clock, notes; with --root, read-only files under each root)
    over standard input and output, as 'ondevice-mcp serve' does.
      --data-dir DIR   Where the notes live (default: \(ExampleTools.defaultDataDirectoryDescription))
      --root DIR       A directory files_list and files_read may read (absolute; repeatable)

    """

/// Writes `text` to standard error (a closed stream is ignored).
func report(_ text: String) {
    try? POSIX.writeAll(POSIX.standardError, Array(text.utf8))
}

/// The options; `nil` after a usage error (reported). `--help` and `--version` exit here.
func parse(_ arguments: ArraySlice<String>) -> (dataDirectory: String?, roots: [String])? {
    var dataDirectory: String?
    var roots: [String] = []
    var rest = arguments
    while let argument = rest.popFirst() {
        switch argument {
        case "-h", "--help":
            try? POSIX.writeAll(POSIX.standardOutput, Array(usage.utf8))
            exit(0)
        case "--version":
            try? POSIX.writeAll(POSIX.standardOutput, Array("ondevice-mcp-serve \(OnDeviceMCPVersion.string)\n".utf8))
            exit(0)
        case "--data-dir", "--root":
            guard let value = rest.popFirst() else {
                report("error: \(argument) needs a value\n\(usage)")
                return nil
            }
            if argument == "--data-dir" {
                dataDirectory = value
            } else if value.hasPrefix("/") {
                roots.append(value)
            } else {
                report("error: --root needs an absolute path, not '\(value)'\n\(usage)")
                return nil
            }
        default:
            report("error: unexpected argument '\(argument)'\n\(usage)")
            return nil
        }
    }
    return (dataDirectory, roots)
}

guard let options = parse(CommandLine.arguments.dropFirst()) else { exit(2) }
let server: MCPServer
let transport: StdioTransport
do {
    server = try await ExampleServer.make(
        dataDirectory: options.dataDirectory, roots: options.roots, onToolFailure: { report("error: \($0)\n") },
        warnings: { report("warning: \($0)\n") })
    transport = try StdioTransport()
} catch {
    report("error: \(error)\n")
    exit(3)
}
do {
    try await server.run(on: transport)
} catch {
    report("error: the connection failed: \(error)\n")
    exit(3)
}
exit(0)
