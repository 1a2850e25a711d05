"""Drives an MCP Streamable HTTP server with the official Python SDK's client (mcp 2.3.0).

    .venv/bin/python Tests/Interop/http/sdk_client_check.py --url http://127.0.0.1:PORT/mcp
        --mode legacy|auto|2026-07-28 [--stateless] [--json-response]

Made to check streamable_server.py (its tools: echo, add, fail, slow, add_tool, remove_tool,
forget_sessions) the way a real SDK client sees it: the era negotiated, every tools/list page,
tool results, progress notifications, tools/list_changed (on the 2025 GET stream, or a
2026-07-28 `subscriptions/listen` stream) and what a request gets after `forget_sessions`.
Pass --stateless / --json-response when the server runs with them, so that the checks expect
what those modes promise (no GET stream and no session to forget; no progress). Prints one
JSON object of observations on standard output; exits 1 (one line per mismatch on standard
error) when something differs from what streamable_server.py documents.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

import anyio
from mcp import Client
from mcp.shared.exceptions import MCPError


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")


async def run(url: str, mode: str, stateless: bool, json_response: bool) -> tuple[dict[str, Any], list[str]]:
    failures: list[str] = []
    observed: dict[str, Any] = {"mode": mode}
    notifications: list[str] = []

    def expect(condition: bool, message: str) -> None:
        if not condition:
            failures.append(message)

    async def on_message(message: Any) -> None:
        method = getattr(getattr(message, "root", message), "method", None)
        if isinstance(method, str):
            notifications.append(method)

    async with Client(url, mode=mode, message_handler=on_message) as client:
        modern = client.protocol_version == "2026-07-28"
        observed["protocolVersion"] = client.protocol_version
        info = client.server_info
        observed["serverInfo"] = None if info is None else {"name": info.name, "version": info.version}

        # Every page of tools/list.
        names: list[str] = []
        cursors: list[str] = []
        cursor: str | None = None
        while True:
            page = await client.list_tools(cursor=cursor, cache_mode="bypass")
            names += [tool.name for tool in page.tools]
            if page.next_cursor is None:
                break
            cursors.append(page.next_cursor)
            cursor = page.next_cursor
        observed["tools"] = len(names)
        observed["cursors"] = cursors
        for name in ("echo", "add", "slow", "add_tool", "remove_tool", "forget_sessions", "fail"):
            expect(name in names, f"tools/list lacks {name}")

        echo = await client.call_tool("echo", {"text": "héllo"})
        observed["echo"] = text_of(echo)
        expect(text_of(echo) == "héllo" and not echo.is_error, f"echo answered {text_of(echo)!r}")
        added = await client.call_tool("add", {"a": 2, "b": 3})
        observed["add"] = {"text": text_of(added), "structuredContent": added.structured_content}
        expect(text_of(added) == "5", f"add answered {text_of(added)!r}")
        failed = await client.call_tool("fail", {})
        observed["fail"] = {"isError": failed.is_error, "text": text_of(failed)}
        expect(bool(failed.is_error), "fail was not an error")

        progress: list[tuple[float, float | None, str | None]] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append((value, total, message))

        slow = await client.call_tool("slow", {"seconds": 0.3, "steps": 3}, progress_callback=on_progress)
        observed["slow"] = text_of(slow)
        observed["progress"] = progress
        if json_response:
            expect(progress == [], f"JSON responses carried progress {progress}")
        else:
            expect([p[0] for p in progress] == [1, 2, 3], f"progress was {progress}")

        # tools/list_changed: on the GET stream (2025) or a subscriptions/listen stream (2026-07-28).
        if modern:
            events: list[str] = []
            async with client.listen(tools_list_changed=True) as subscription:

                async def collect() -> None:
                    async for event in subscription:
                        events.append(type(event).__name__)
                        return

                async with anyio.create_task_group() as group:
                    group.start_soon(collect)
                    await anyio.sleep(0.2)
                    await client.call_tool("add_tool", {"name": "late_tool"})
                    with anyio.move_on_after(5):
                        while not events:
                            await anyio.sleep(0.05)
                    group.cancel_scope.cancel()
            observed["listChanged"] = events
            expect(events == ["ToolsListChanged"], f"listen stream carried {events}")
        else:
            await anyio.sleep(0.3)  # the SDK opens its GET stream after notifications/initialized
            await client.call_tool("add_tool", {"name": "late_tool"})
            with anyio.move_on_after(3):
                while "notifications/tools/list_changed" not in notifications:
                    await anyio.sleep(0.05)
            observed["listChanged"] = [n for n in notifications if n.endswith("list_changed")]
            if stateless:
                expect(observed["listChanged"] == [], "a stateless server sent tools/list_changed")
            else:
                expect(observed["listChanged"] != [], "no tools/list_changed arrived on the GET stream")
        late = await client.call_tool("late_tool", {"text": "x"})
        expect(text_of(late) == "late_tool: x", f"late_tool answered {text_of(late)!r}")
        removed = await client.call_tool("remove_tool", {"name": "late_tool"})
        expect(text_of(removed) == "removed late_tool", f"remove_tool answered {text_of(removed)!r}")

        # Forget every session: the next request of this (2025, stateful) session fails.
        forgot = await client.call_tool("forget_sessions", {})
        observed["forget"] = text_of(forgot)
        try:
            after = await client.call_tool("echo", {"text": "still there?"})
            observed["afterForget"] = {"result": text_of(after)}
            expect(modern or stateless, "a request after forget_sessions still succeeded")
        except MCPError as error:
            observed["afterForget"] = {"code": error.code, "message": error.error.message}
            expect(not (modern or stateless), f"a request after forget_sessions failed: {error}")
    return observed, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--mode", default="auto", choices=["legacy", "auto", "2026-07-28"])
    parser.add_argument("--stateless", action="store_true")
    parser.add_argument("--json-response", action="store_true")
    options = parser.parse_args()
    try:
        observed, failures = asyncio.run(run(options.url, options.mode, options.stateless, options.json_response))
    except Exception as error:  # noqa: BLE001
        print(f"sdk_client_check: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(2)
    print(json.dumps(observed))
    for failure in failures:
        print(failure, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
