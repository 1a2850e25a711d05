// ondevice-mcp: serve, list and call MCP tools, and chat with the on-device model over them.
// All logic is in MCPCommandLine.
import Foundation
import MCPCommandLine

exit(await OnDeviceMCPCommand.main(CommandLine.arguments))
