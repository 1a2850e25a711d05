"""A minimal MCP server written with the official Python SDK (mcp 2.3.0), over stdio.

One tool, `echo(text) -> text`. By default the SDK's dual-era stdio loop lets the
client's first request choose the era: `initialize` gets the handshake (up to
2025-11-25), and `server/discover` or any request carrying a 2026-07-28 envelope gets
the modern era. With `--handshake-only` it runs the SDK's handshake-only loop instead,
as a server from before 2026-07-28 would: no `server/discover`, `initialize` first.
With `--slow` it also offers `sleep(seconds) -> "slept"`, for timeout and cancellation tests
(the default, one tool, is what the benchmarks measure). With `--roots` it also offers
`roots() -> text`, which asks the client for its roots (a `roots/list` request up to
2025-11-25, an `input_required` result in 2026-07-28) and lists them, one a line.

Used by the interop tests (Tests/InteropTests) and the benchmarks.

    .venv/bin/python Tests/Interop/python_echo_server.py [--handshake-only] [--slow] [--roots]
"""

import sys
from typing import Annotated

import anyio
from mcp.server.mcpserver import ListRoots, MCPServer, Resolve
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


def ask_for_roots() -> ListRoots:
    return ListRoots()


async def roots(listed: Annotated[object, Resolve(ask_for_roots)]) -> str:
    """Lists the client's roots: its URI and name, one a line."""
    return "\n".join(f"{root.uri} {root.name or '-'}" for root in listed.roots)  # type: ignore[attr-defined]


if __name__ == "__main__":
    options = sys.argv[1:]
    if any(option not in ("--handshake-only", "--slow", "--roots") for option in options):
        sys.exit(f"usage: {sys.argv[0]} [--handshake-only] [--slow] [--roots]")
    if "--slow" in options:
        server.add_tool(sleep, description="Waits for the given number of seconds.")
    if "--roots" in options:
        server.add_tool(roots, description="Lists the client's roots.")
    if "--handshake-only" in options:
        anyio.run(serve_handshake_only)
    else:
        server.run()  # stdio, both eras
