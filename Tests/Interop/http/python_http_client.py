"""Benchmarks `tools/call echo` round trips with the official Python SDK's Streamable HTTP client (mcp 2.3.0).

    .venv/bin/python Tests/Interop/http/python_http_client.py --url http://127.0.0.1:PORT/mcp
        --calls N --in-flight K [--mode auto|legacy|2026-07-28] [--warmup W]

Connects with `mcp.Client(url)` (the SDK's `mcp.client.streamable_http` transport), negotiates
the era (`--mode`, default `auto`: `server/discover`, falling back to `initialize`), lists the
tools once, makes W untimed warm-up calls (default 10), then times N `tools/call echo` round
trips with K of them in flight at any moment (K workers sharing one counter), checking every
answer. Prints one JSON line on standard output:

    {"calls": N, "inFlight": K, "seconds": S, "perSecond": R, "protocolVersion": "..."}

`seconds` covers the N timed calls only (not the handshake, listing or warm-up). Exits 1 when
a call fails or answers the wrong text, 2 on a usage or connection error. Used to compare our
Swift client with the SDK's on the same server (Tests/Interop/http/streamable_server.py).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time

import anyio
from mcp import Client


class WrongAnswer(Exception):
    pass


async def run(url: str, mode: str, calls: int, in_flight: int, warmup: int) -> dict[str, object]:
    async with Client(url, mode=mode) as client:
        await client.list_tools()

        async def call(index: int) -> None:
            text = f"call {index}"
            try:
                result = await client.call_tool("echo", {"text": text})
            except Exception as error:
                raise WrongAnswer(f"echo {text!r} failed: {type(error).__name__}: {error}") from error
            answer = "".join(getattr(block, "text", "") for block in result.content)
            if result.is_error or answer != text:
                raise WrongAnswer(f"echo {text!r} answered {answer!r} (isError {result.is_error})")

        for index in range(warmup):
            await call(-1 - index)

        next_index = 0

        async def worker() -> None:
            nonlocal next_index
            while next_index < calls:
                index = next_index
                next_index += 1
                await call(index)

        started = time.perf_counter()
        async with anyio.create_task_group() as group:
            for _ in range(min(in_flight, calls)):
                group.start_soon(worker)
        seconds = time.perf_counter() - started
        return {
            "calls": calls,
            "inFlight": in_flight,
            "seconds": round(seconds, 4),
            "perSecond": round(calls / seconds, 1) if seconds > 0 else None,
            "protocolVersion": client.protocol_version,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="the MCP endpoint, e.g. http://127.0.0.1:PORT/mcp")
    parser.add_argument("--calls", type=int, default=2000, help="timed tools/call round trips (2000)")
    parser.add_argument("--in-flight", type=int, default=1, help="calls in flight at once (1)")
    parser.add_argument("--mode", default="auto", choices=["auto", "legacy", "2026-07-28"])
    parser.add_argument("--warmup", type=int, default=10, help="untimed calls before timing (10)")
    options = parser.parse_args()
    if options.calls < 1 or options.in_flight < 1 or options.warmup < 0:
        parser.error("--calls and --in-flight must be at least 1, --warmup not negative")
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    try:
        summary = anyio.run(run, options.url, options.mode, options.calls, options.in_flight, options.warmup)
    except WrongAnswer as error:
        print(f"python_http_client: {error}", file=sys.stderr)
        sys.exit(1)
    except Exception as error:  # noqa: BLE001
        group = getattr(error, "exceptions", None)
        if group and all(isinstance(e, WrongAnswer) for e in group):
            print(f"python_http_client: {group[0]}", file=sys.stderr)
            sys.exit(1)
        print(f"python_http_client: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(2)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
