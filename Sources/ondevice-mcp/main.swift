// ondevice-mcp: serve, list and call MCP tools, and chat with the on-device model over them.
// All logic is in MCPCommandLine; only `exit` comes from the C library. First of all, this
// executable may have been started as the launcher of a boxed server (see SandboxLauncher):
// then it boxes itself and becomes the server, never coming back here.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MCP
import MCPCommandLine

SandboxLauncher.runIfRequested()

exit(await OnDeviceMCPCommand.main(CommandLine.arguments))
