"""A minimal MCP server written with the official Python SDK (mcp 2.3.0), over stdio.

One tool, `echo(text) -> text`. By default the SDK's dual-era stdio loop lets the
client's first request choose the era: `initialize` gets the handshake (up to
2025-11-25), and `server/discover` or any request carrying a 2026-07-28 envelope gets
the modern era. With `--handshake-only` it runs the SDK's handshake-only loop instead,
as a server from before 2026-07-28 would: no `server/discover`, `initialize` first.
With `--slow` it also offers `sleep(seconds) -> "slept"`, for timeout and cancellation tests
(the default, one tool, is what the benchmarks measure).

Used by the interop tests (Tests/InteropTests) and the benchmarks.

    .venv/bin/python Tests/Interop/python_echo_server.py [--handshake-only] [--slow]
"""

import sys

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.runner import serve_loop
from mcp.server.stdio import stdio_server

server = MCPServer("python-echo", version="1.0.0")


@server.tool(description="Returns its input unchanged.")
def echo(text: str) -> str:
    return text


async def serve_handshake_only() -> None:
    lowlevel = server._lowlevel_server  # pyright: ignore[reportPrivateUsage]
    async with stdio_server() as (read_stream, write_stream), lowlevel.lifespan(lowlevel) as state:
        await serve_loop(
            lowlevel, read_stream, write_stream, lifespan_state=state, init_options=lowlevel.create_initialization_options()
        )


async def sleep(seconds: float) -> str:
    """Waits, then says so; a cancelled call stops waiting."""
    await anyio.sleep(seconds)
    return "slept"


if __name__ == "__main__":
    options = sys.argv[1:]
    if any(option not in ("--handshake-only", "--slow") for option in options):
        sys.exit(f"usage: {sys.argv[0]} [--handshake-only] [--slow]")
    if "--slow" in options:
        server.add_tool(sleep, description="Waits for the given number of seconds.")
    if "--handshake-only" in options:
        anyio.run(serve_handshake_only)
    else:
        server.run()  # stdio, both eras
