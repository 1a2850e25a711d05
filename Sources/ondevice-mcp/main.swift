import MCPCommandLine

// ondevice-mcp: serve, list and call MCP tools (stdio, process and HTTP servers), and chat with
// the on-device model (or a model server's) over them. All logic is in MCPCommandLine; only
// `exit` comes from the C library.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

exit(await OnDeviceMCPCommand.main(CommandLine.arguments))
