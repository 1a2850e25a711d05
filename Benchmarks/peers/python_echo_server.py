"""The official MCP Python SDK's high-level server with one echo tool, for the stdio benchmarks.

Run with the package's venv: `.venv/bin/python Benchmarks/peers/python_echo_server.py`
(mcp 2.3.0, where the high-level server class is `MCPServer`, formerly `FastMCP`).
"""

from mcp.server.mcpserver import MCPServer

server = MCPServer("python-echo")


@server.tool()
def echo(text: str) -> str:
    """Repeats the text it is given."""
    return text


if __name__ == "__main__":
    server.run("stdio")
