// ondevice-mcp: serve, list and call MCP tools. All logic is in MCPCommandLine.
import Foundation
import MCPCommandLine

exit(await OnDeviceMCPCommand.main(CommandLine.arguments))
