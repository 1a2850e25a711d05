"""An MCP server over HTTP for OnDeviceMCP's HTTP transport tests.

Runs the official Python SDK's MCPServer under uvicorn on 127.0.0.1, on a free port, and
prints that port on the first line of standard output. Modes:

  streamable       Streamable HTTP at /mcp; requests answered with event streams
  streamable-json  Streamable HTTP at /mcp; requests answered with JSON bodies
  sse              the 2024-11-05 HTTP+SSE transport: GET /sse, POST /messages/

Tools: add(a, b) -> a + b; slow(steps) reports progress `steps` times, then says "done";
locate(region) -> "region <region>", whose `region` is mirrored in the `Mcp-Param-Region`
header (2026-07-28's x-mcp-header), which the server checks; hold() reports progress once, then
waits (up to 30 s) until release() is called: a client that sees the progress only when the
call's response ends never calls release in time.
The server exits when its standard input closes (the test's end).
"""

import socket
import sys
import threading
import os

from typing import Annotated

import anyio
import uvicorn
from pydantic import Field
from mcp.server.mcpserver import Context, MCPServer


def make_server() -> MCPServer:
    server = MCPServer("ondevice-http-peer", version="1.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Adds two integers."""
        return a + b

    @server.tool()
    async def slow(steps: int, ctx: Context) -> str:
        """Reports progress `steps` times, then answers."""
        for step in range(1, steps + 1):
            await ctx.report_progress(step, steps, f"step {step}")
            await anyio.sleep(0.01)
        return "done"

    gates: list[anyio.Event] = []

    @server.tool()
    async def hold(ctx: Context) -> str:
        """Reports progress, then waits for release()."""
        gate = anyio.Event()
        gates.append(gate)
        await ctx.report_progress(1, 2, "waiting for release")
        with anyio.move_on_after(30):
            await gate.wait()
            return "released"
        return "timed out"

    @server.tool()
    def release() -> str:
        """Releases every hold() call waiting."""
        for gate in gates:
            gate.set()
        gates.clear()
        return "ok"

    @server.tool()
    def locate(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
        """Names the region it was given."""
        return f"region {region}"

    return server


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "streamable"
    server = make_server()
    if mode == "sse":
        app = server.sse_app()
    else:
        app = server.streamable_http_app(json_response=(mode == "streamable-json"))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    # Listening before the port is printed: a client that connects at once waits in the backlog.
    sock.listen(128)
    print(sock.getsockname()[1], flush=True)

    def watch_stdin() -> None:
        # The test closes our standard input (or dies): stop.
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
