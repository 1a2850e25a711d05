"""The official MCP Python SDK's (mcp 2.3.0) Streamable HTTP server, as a peer for our HTTP client tests.

    .venv/bin/python Tests/Interop/http/streamable_server.py [--port N] [--json-response] [--stateless]
        [--page-size N] [--extra-tools N] [--handshake-only] [--path /mcp] [--verbose] [--ignore-stdin]
        [--event-store [--retry-interval MS]]

Binds 127.0.0.1 (port 0, a free one, unless --port N: a test can kill the server and start
it again on the same port), prints exactly one line `PORT <n>` on standard output once it
accepts requests, and serves until it is killed (SIGTERM, SIGINT) or its standard input
closes (unless --ignore-stdin). Logs go to standard error only (--verbose: one line per HTTP
request with its MCP headers). Tests/Interop/http/README.md records the wire behaviour
observed with curl and the SDK's own client; this is its summary.

Endpoint `http://127.0.0.1:<port>/mcp` (POST, GET, DELETE; `/mcp/` is a 307 to `/mcp`, any
other path 404). `POST /admin/forget` (no body) forgets every session, like the
`forget_sessions` tool, and answers `{"forgot": n}`. The SDK's DNS-rebinding guard is on:
`Host` must be `127.0.0.1:<port>` or `localhost:<port>` (else 421), an `Origin`, if sent,
`http://127.0.0.1:*` or `http://localhost:*` (else 403); POST bodies must be
`Content-Type: application/json` (else 400) and at most 4 MiB (else 413).

Eras: the SDK routes each request by its `MCP-Protocol-Version` header alone.
- No header, or 2024-11-05 / 2025-03-26 / 2025-06-18 / 2025-11-25: the 2025 transport.
  `initialize` without `Mcp-Session-Id` opens a session; its id (32 lowercase hex digits)
  comes back in the `mcp-session-id` response header and every later request must carry it
  (400 "Bad Request: Missing session ID" without, 404 "Session not found" for an unknown,
  deleted or forgotten one). GET opens the session's standalone SSE stream (one at a time,
  409 for a second); DELETE ends the session (200, empty body; then 404). With --stateless
  there are no session ids at all: every POST is served on its own (no `initialize` needed),
  DELETE is 405, GET opens an SSE stream that never carries anything.
- Any other value (2026-07-28, or an unknown version): the SDK's single-exchange 2026-07-28
  entry, with or without --stateless. Every POST stands alone (no `initialize`, no session
  id, `Mcp-Session-Id` ignored); `params._meta` must carry
  `io.modelcontextprotocol/protocolVersion` and `io.modelcontextprotocol/clientCapabilities`
  (else 400, -32602), `MCP-Protocol-Version` must equal the former, `Mcp-Method` the body's
  method, `Mcp-Name` the tool name of a tools/call (else 400, -32020 header mismatch); an
  unsupported version is 400, -32022. GET/DELETE are 405 (`Allow: POST`).

Responses: a 2025 request POST is answered with SSE (`text/event-stream`, `event: message`
frames, CRLF line ends) by default, with one `application/json` body under --json-response
(request-scoped notifications, such as progress, are then dropped). A 2026-07-28 POST is
answered with JSON unless the handler sends a notification (progress) before it finishes,
which commits the response to SSE; --json-response always answers JSON.

Tools (all results also carry `structuredContent: {"result": ...}`):
- `echo(text)` -> `text`.
- `add(a, b)` (integers) -> `a + b`.
- `slow(seconds, steps=5)` sleeps `seconds` in `steps` equal steps, sending
  `notifications/progress` {progressToken, progress: i, total: steps, message: "step i/steps"}
  after each step when the request carried `params._meta.progressToken`; returns "slept".
  Cancelled by `notifications/cancelled` in a 2025 session (the POST then ends with the error
  -32800 "Request cancelled"), or by closing the response in the 2026-07-28 era and in 2025
  --stateless; closing a 2025 stateful POST does not stop it.
- `add_tool(name)` registers `name(text="")` -> "<name>: <text>", then sends
  `notifications/tools/list_changed` on the GET stream of every open 2025 session (dropped
  for one with no GET stream open: there is no event store) and to every 2026-07-28
  `subscriptions/listen` stream that asked for `toolsListChanged`. `remove_tool(name)` undoes
  it the same way (an isError result if there is no such tool). 2025 sessions are told
  `capabilities.tools.listChanged: true`.
- `forget_sessions()` -> "forgot N session(s)": every session is dropped at once (the
  caller's own after this answer is sent), so any old `Mcp-Session-Id` now gets 404 and open
  GET streams end. A no-op (N = 0) for --stateless and the 2026-07-28 era.
- `fail()` -> an isError result, text "Error executing tool fail: this tool always fails".
- `--extra-tools N` adds tools `extra_00`, `extra_01`... (each `(text="")` -> "extra_NN: text").
- `--page-size N` makes `tools/list` return N tools a page: `nextCursor` is the decimal offset
  of the next page ("10", "20", ...), absent on the last page; a cursor that is not such an
  offset is the error -32602.
- `--handshake-only` answers any request whose `MCP-Protocol-Version` is not a 2025 one
  as a server from before 2026-07-28 (mcp 1.x) would: 400, JSON-RPC error -32600
  "Bad Request: Unsupported protocol version: <v>. Supported versions: ...".

Resumability (`--event-store`, 2025 stateful sessions): the SDK's transport gets an in-memory
event store (MemoryEventStore; the SDK ships only the interface), so every SSE event carries an
`id:` ("e1", "e2"... across all streams), a 2025-11-25 POST stream starts with a priming event
(an id, empty data; `retry: MS` too with `--retry-interval MS`), and a GET with `Last-Event-ID`
replays the events of that id's stream that came after it (then carries that stream live).
Three more tools come with it (listed after the others). Two cut their stream in the middle,
deterministically: the event that carries a marker is written, then the stream is cut
(StreamCutter), and what the server sends after it is only stored, for a replay:
- `interrupted(before, after, cut)` reports progress `before + after` times (message
  "step i/total"; the `before`-th also carries the marker), then answers
  "interrupted after <before> of <total>".
- `announce_interrupted(before, after, cut)` waits until the session's GET stream is open, sends
  `before + after` `notifications/resources/updated` on it (uri "test://announced/<n>"; the
  `before`-th has the marker as its fragment: "test://announced/<n>#[cut:<cut>]"), then
  answers "announced <total>".
`cut` is `close` (the response ends there: a clean end of the chunked body) or `sever` (the
connection is closed without the final chunk, as a dropped connection looks). A replay of such a
stream waits until all of it is stored (the call's response, or the last notification): a client
that reconnects at once still gets every event it missed, and the SDK's window between a replay
and its live tail (an event stored then reaches neither) stays empty.
The third, `flood(count, size)`, reports progress `count` times as fast as it can, each message
`size` characters long, then answers "flooded <count>" (its replay waits the same way);
`GET /admin/flooded` answers once a flood has sent its last report (so a test that reads
nothing can wait for the server to be done).
`GET /admin/resumptions` answers `{"cuts": [{"kind": "close"|"sever", "lastEventId": <the id of
the last event written before the cut>}...], "resumptions": [<the Last-Event-ID of each GET that
sent one>...]}`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import socket
import sys
import re
import threading
import weakref
from collections.abc import Callable
from typing import Any

import anyio
import uvicorn
import mcp.server.streamable_http_manager as streamable_http_manager
from mcp_types import INVALID_PARAMS, JSONRPCError, JSONRPCMessage, JSONRPCNotification, JSONRPCResponse
from mcp_types import ListToolsResult, PaginatedRequestParams
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from mcp.server.connection import Connection
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http import GET_STREAM_KEY, EventCallback, EventMessage, EventStore
from mcp.server.streamable_http import StreamableHTTPServerTransport
from mcp.shared.exceptions import MCPError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("streamable_server")

server = MCPServer("python-http", version="1.0.0", log_level="WARNING")
lowlevel = server._lowlevel_server  # pyright: ignore[reportPrivateUsage]

# 2025-era capabilities come from create_initialization_options(), whose default
# NotificationOptions say listChanged=false; this server does send tools/list_changed.
_default_init_options = lowlevel.create_initialization_options


def _init_options_with_list_changed(notification_options: Any = None, *args: Any, **kwargs: Any) -> Any:
    return _default_init_options(NotificationOptions(tools_changed=True), *args, **kwargs)


lowlevel.create_initialization_options = _init_options_with_list_changed  # type: ignore[method-assign]

# Connections of open 2025-era stateful sessions, for broadcasting tools/list_changed.
_connections: weakref.WeakSet[Connection] = weakref.WeakSet()

# Transports of forgotten sessions that are still answering the request that forgot them, by
# session id: terminated once that request's response is out (ForgetAfterResponse).
_deferred_terminations: dict[str, Any] = {}


class TrackConnections:
    """Server middleware: remembers each session's Connection (its standalone channel)."""

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        connection = getattr(ctx.session, "_connection", None)
        if connection is not None and connection.session_id is not None and connection not in _connections:
            _connections.add(connection)
        return await call_next(ctx)


server.middleware.append(TrackConnections())


async def _broadcast_tools_changed(ctx: Context) -> None:
    for connection in list(_connections):
        await connection.send_tool_list_changed()  # never raises; dropped without a GET stream
    await ctx.notify_tools_changed()  # modern subscriptions/listen streams


@server.tool(description="Returns its input unchanged.")
def echo(text: str) -> str:
    return text


@server.tool(description="Adds two integers.")
def add(a: int, b: int) -> int:
    return a + b


@server.tool(description="Sleeps for the given number of seconds in steps, reporting progress after each step.")
async def slow(seconds: float, ctx: Context, steps: int = 5) -> str:
    steps = max(1, steps)
    step = 0
    try:
        for step in range(1, steps + 1):
            await anyio.sleep(seconds / steps)
            await ctx.report_progress(step, steps, f"step {step}/{steps}")
    except anyio.get_cancelled_exc_class():
        log.info("slow(%s): cancelled during step %d of %d", seconds, step, steps)
        raise
    log.info("slow(%s): done", seconds)
    return "slept"


def _make_dynamic_tool(name: str) -> Any:
    def dynamic(text: str = "") -> str:
        return f"{name}: {text}"

    return dynamic


@server.tool(description="Registers a new tool with the given name and announces tools/list_changed.")
async def add_tool(name: str, ctx: Context) -> str:
    server.add_tool(_make_dynamic_tool(name), name=name, description=f"Added at runtime: returns '{name}: <text>'.")
    await _broadcast_tools_changed(ctx)
    return f"added {name}"


@server.tool(description="Removes the tool with the given name and announces tools/list_changed.")
async def remove_tool(name: str, ctx: Context) -> str:
    try:
        server.remove_tool(name)
    except Exception as error:
        raise ToolError(f"no tool named {name!r}") from error
    await _broadcast_tools_changed(ctx)
    return f"removed {name}"


async def _forget_sessions(keep_until_answered: str | None) -> int:
    """Forgets every session: from now on their ids answer 404.

    The transport of `keep_until_answered` (the session asking) is terminated only after
    its current request has been answered, so that answer still reaches the client.
    """
    try:
        manager = lowlevel.session_manager
    except RuntimeError:
        return 0
    sessions = list(manager._server_instances.items())  # pyright: ignore[reportPrivateUsage]
    manager._server_instances.clear()  # pyright: ignore[reportPrivateUsage]
    manager._session_owners.clear()  # pyright: ignore[reportPrivateUsage]
    for session_id, transport in sessions:
        if session_id == keep_until_answered:
            _deferred_terminations[session_id] = transport
        else:
            with anyio.CancelScope(shield=True):
                await transport.terminate()
    log.info("forgot %d session(s)", len(sessions))
    return len(sessions)


@server.tool(description="Drops every session, so requests with an old Mcp-Session-Id get 404.")
async def forget_sessions(ctx: Context) -> str:
    request = ctx.request_context.request
    own = request.headers.get("mcp-session-id") if isinstance(request, Request) else None
    count = await _forget_sessions(own)
    return f"forgot {count} session(s)"


@server.tool(description="Always fails: an isError result.")
def fail() -> str:
    raise ToolError("this tool always fails")


@server.custom_route("/admin/forget", methods=["POST"])
async def admin_forget(_request: Request) -> Response:
    return JSONResponse({"forgot": await _forget_sessions(None)})


# --- Resumability (--event-store) -------------------------------------------------------------

# How long a replay waits for a held stream, and a tool for the GET stream to open: hang guards.
HOLD_LIMIT = 10.0


class MemoryEventStore(EventStore):
    """Every event of every stream, in memory, in the order stored; ids "e1", "e2"...

    A stream can be held (`hold`): a replay of it waits until the event that ends the hold has
    been stored, so that it replays the whole of what was missed.
    """

    def __init__(self) -> None:
        self.events: list[tuple[str, str, JSONRPCMessage | None]] = []
        self.positions: dict[str, int] = {}
        self.holds: dict[str, tuple[anyio.Event, Callable[[JSONRPCMessage], bool]]] = {}

    def hold(self, stream_id: str, until: Callable[[JSONRPCMessage], bool]) -> None:
        """Replays of `stream_id` wait until a message for which `until` is true is stored."""
        self.holds[stream_id] = (anyio.Event(), until)

    async def store_event(self, stream_id: str, message: JSONRPCMessage | None) -> str:
        event_id = f"e{len(self.events) + 1}"
        self.positions[event_id] = len(self.events)
        self.events.append((event_id, stream_id, message))
        held = self.holds.get(stream_id)
        if held is not None and message is not None and held[1](message):
            del self.holds[stream_id]
            held[0].set()
        return event_id

    async def replay_events_after(self, last_event_id: str, send_callback: EventCallback) -> str | None:
        position = self.positions.get(last_event_id)
        if position is None:
            log.info("replay after unknown event %r", last_event_id)
            return None
        stream_id = self.events[position][1]
        held = self.holds.get(stream_id)
        if held is not None:
            with anyio.move_on_after(HOLD_LIMIT):
                await held[0].wait()
        # By index, not a copy: what is stored while the replay is sent is replayed too.
        index = position + 1
        while index < len(self.events):
            event_id, stream, message = self.events[index]
            index += 1
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        log.info("replayed stream %s after %s", stream_id, last_event_id)
        return stream_id


class _Streams(dict[Any, Any]):
    """A transport's registry of open streams (`_request_streams`), with an event per key that is
    set while the key is registered: a tool can wait for the GET stream to open."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: dict[Any, anyio.Event] = {}

    def event(self, key: Any) -> anyio.Event:
        return self.opened.setdefault(key, anyio.Event())

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.event(key).set()

    def __delitem__(self, key: Any) -> None:
        super().__delitem__(key)
        self.opened.pop(key, None)

    def pop(self, key: Any, *default: Any) -> Any:
        self.opened.pop(key, None)
        return super().pop(key, *default)

    def clear(self) -> None:
        self.opened.clear()
        super().clear()


class ObservedTransport(StreamableHTTPServerTransport):
    """The SDK's session transport, whose stream registry can be waited on."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_streams = _Streams()


class StreamCut(Exception):
    """Raised into the SDK's response writer once StreamCutter has cut its stream."""


_EVENT_ID_LINE = re.compile(rb"^id: ?([^\r\n]*)", re.MULTILINE)


class StreamCutter:
    """ASGI wrapper: cuts a response stream right after the body chunk that carries a marker
    (`[cut:close]`: the response ends there; `[cut:sever]`: the connection is closed without the
    final chunk; once per event: a replay of it goes through), and records the `Last-Event-ID` of each GET that sends one.

    After the cut the SDK's sends on that stream fail, as for a client gone away: it forgets the
    stream, and what it sends for it afterwards is only stored, for a replay."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.cuts: list[dict[str, Any]] = []
        self.cut_events: set[str] = set()
        self.resumptions: list[str] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        resumed = dict(scope["headers"]).get(b"last-event-id")
        if scope["method"] == "GET" and resumed is not None:
            self.resumptions.append(resumed.decode("latin-1"))
        cut: list[str] = []
        last_id: list[str] = []

        async def guarded(message: Any) -> None:
            if cut:
                raise StreamCut(cut[0])
            if message["type"] == "http.response.body":
                body = message.get("body", b"")
                last_id.extend(match.group(1).decode("latin-1") for match in _EVENT_ID_LINE.finditer(body))
                kind = "close" if b"[cut:close]" in body else "sever" if b"[cut:sever]" in body else None
                event_id = last_id[-1] if last_id else None
                # An event is cut after once: its replay goes through.
                if kind is not None and (event_id is None or event_id not in self.cut_events):
                    if event_id is not None:
                        self.cut_events.add(event_id)
                    await send(message)
                    if kind == "close":
                        await send({"type": "http.response.body", "body": b"", "more_body": False})
                    cut.append(kind)
                    self.cuts.append({"kind": kind, "lastEventId": event_id})
                    log.info("cut a stream (%s) after event %s", kind, event_id)
                    raise StreamCut(kind)
            await send(message)

        try:
            await self.app(scope, receive, guarded)
        except Exception:
            # The SDK may let the cut through: it was meant. (A severed response is left
            # incomplete, so uvicorn closes the connection without the final chunk.)
            if not cut:
                raise


_event_store: MemoryEventStore | None = None
_cutter: StreamCutter | None = None


def _session_transport(ctx: Context) -> StreamableHTTPServerTransport:
    request = ctx.request_context.request
    session_id = request.headers.get("mcp-session-id") if isinstance(request, Request) else None
    transport = lowlevel.session_manager._server_instances.get(session_id)  # pyright: ignore[reportPrivateUsage]
    if transport is None:
        raise ToolError("this tool needs a 2025 stateful session")
    return transport


def _check_cut(cut: str) -> str:
    if cut not in ("close", "sever"):
        raise ToolError(f"cut must be close or sever, not {cut!r}")
    return cut


async def interrupted(before: int, after: int, cut: str, ctx: Context) -> str:
    """Reports progress before + after times; the response stream is cut after the before-th."""
    assert _event_store is not None
    marker = f" [cut:{_check_cut(cut)}]"
    total = before + after
    stream_id = ctx.request_id

    def answers(message: JSONRPCMessage) -> bool:
        return isinstance(message, JSONRPCResponse | JSONRPCError) and str(message.id) == stream_id

    _event_store.hold(stream_id, answers)
    for step in range(1, total + 1):
        await ctx.report_progress(step, total, f"step {step}/{total}" + (marker if step == before else ""))
    return f"interrupted after {before} of {total}"


async def announce_interrupted(before: int, after: int, cut: str, ctx: Context) -> str:
    """Sends before + after resources/updated on the GET stream; it is cut after the before-th."""
    assert _event_store is not None
    marker = f"#[cut:{_check_cut(cut)}]"
    total = before + after
    transport = _session_transport(ctx)
    streams = transport._request_streams  # pyright: ignore[reportPrivateUsage]
    if not isinstance(streams, _Streams):
        raise ToolError("this session's transport cannot be watched")
    with anyio.fail_after(HOLD_LIMIT):
        await streams.event(GET_STREAM_KEY).wait()
    last = f"test://announced/{total}"

    def ends(message: JSONRPCMessage) -> bool:
        return isinstance(message, JSONRPCNotification) and (message.params or {}).get("uri") == last

    _event_store.hold(GET_STREAM_KEY, ends)
    connection = ctx.session._connection  # pyright: ignore[reportPrivateUsage]
    for number in range(1, total + 1):
        await connection.send_resource_updated(f"test://announced/{number}" + (marker if number == before else ""))
    return f"announced {total}"


_flood_done: anyio.Event | None = None


async def flood(count: int, size: int, ctx: Context) -> str:
    """Reports progress `count` times as fast as it can, each message `size` characters long."""
    assert _event_store is not None
    stream_id = ctx.request_id

    def answers(message: JSONRPCMessage) -> bool:
        return isinstance(message, JSONRPCResponse | JSONRPCError) and str(message.id) == stream_id

    _event_store.hold(stream_id, answers)
    padding = "x" * size
    for step in range(1, count + 1):
        await ctx.report_progress(step, count, padding)
    global _flood_done
    if _flood_done is None:
        _flood_done = anyio.Event()
    _flood_done.set()
    return f"flooded {count}"


def install_resumability() -> MemoryEventStore:
    """Registers the interrupting tools and the SDK transport that can be watched; returns the store."""
    global _event_store
    _event_store = MemoryEventStore()
    streamable_http_manager.StreamableHTTPServerTransport = ObservedTransport  # type: ignore[misc]
    server.add_tool(
        interrupted,
        name="interrupted",
        description="Reports progress before + after times; the response stream is cut after the before-th (cut: close or sever).",
    )
    server.add_tool(
        flood,
        name="flood",
        description="Reports progress count times as fast as it can, each message size characters long.",
    )
    server.add_tool(
        announce_interrupted,
        name="announce_interrupted",
        description="Sends before + after resources/updated on the GET stream, which is cut after the before-th (cut: close or sever).",
    )
    return _event_store


@server.custom_route("/admin/flooded", methods=["GET"])
async def admin_flooded(_request: Request) -> Response:
    """Answers once a flood call has sent its last report (at most 30 s)."""
    global _flood_done
    if _flood_done is None:
        _flood_done = anyio.Event()
    with anyio.move_on_after(30):
        await _flood_done.wait()
    return JSONResponse({"flooded": _flood_done.is_set()})


@server.custom_route("/admin/resumptions", methods=["GET"])
async def admin_resumptions(_request: Request) -> Response:
    if _cutter is None:
        return JSONResponse({"error": "start the server with --event-store"}, status_code=404)
    return JSONResponse({"cuts": _cutter.cuts, "resumptions": _cutter.resumptions})


def install_pagination(page_size: int) -> None:
    async def list_tools_paginated(ctx: Any, params: PaginatedRequestParams) -> ListToolsResult:
        tools = await server.list_tools()
        start = 0
        if params.cursor is not None:
            try:
                start = int(params.cursor)
            except ValueError:
                raise MCPError(code=INVALID_PARAMS, message=f"invalid cursor {params.cursor!r}") from None
            if not 0 <= start < len(tools):
                raise MCPError(code=INVALID_PARAMS, message=f"cursor {params.cursor!r} is out of range")
        end = start + page_size
        return ListToolsResult(tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None)

    lowlevel.add_request_handler("tools/list", PaginatedRequestParams, list_tools_paginated)


class ForgetAfterResponse:
    """ASGI wrapper: terminates sessions forgotten by their own request once it is answered; logs requests."""

    def __init__(self, app: ASGIApp, verbose: bool, handshake_only: bool) -> None:
        self.app = app
        self.verbose = verbose
        self.handshake_only = handshake_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status: list[int] = []

        async def watch(message: Any) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            version = dict(scope["headers"]).get(b"mcp-protocol-version", b"").decode("latin-1")
            if self.handshake_only and version and version not in HANDSHAKE_PROTOCOL_VERSIONS:
                # What a server from before 2026-07-28 (mcp 1.x) answers an unknown version.
                message = (
                    f"Bad Request: Unsupported protocol version: {version}. "
                    f"Supported versions: {', '.join(HANDSHAKE_PROTOCOL_VERSIONS)}"
                )
                body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}
                await JSONResponse(body, status_code=400)(scope, receive, watch)
            else:
                await self.app(scope, receive, watch)
        finally:
            if self.verbose:
                shown = " ".join(
                    f"{k.decode('latin-1')}={v.decode('latin-1')!r}"
                    for k, v in scope["headers"]
                    if k.startswith(b"mcp-") or k in (b"accept", b"last-event-id")
                )
                log.info("%s %s -> %s [%s]", scope["method"], scope["path"], status[0] if status else "-", shown)
            session_id = dict(scope["headers"]).get(b"mcp-session-id", b"").decode("latin-1")
            transport = _deferred_terminations.pop(session_id, None)
            if transport is not None:
                with anyio.CancelScope(shield=True):
                    await transport.terminate()


def bind(port: int) -> socket.socket:
    # proto=IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP,
    # and without it every Content-Length response stalls ~40 ms (Nagle + delayed ACK).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def watch_stdin(on_eof: Any) -> None:
    def run() -> None:
        try:
            while sys.stdin.buffer.read1(65536):
                pass
        except Exception:
            pass
        on_eof()

    threading.Thread(target=run, name="stdin-watch", daemon=True).start()


async def main(options: argparse.Namespace) -> None:
    global _cutter
    store = install_resumability() if options.event_store else None
    starlette_app: ASGIApp = server.streamable_http_app(
        streamable_http_path=options.path,
        json_response=options.json_response,
        stateless_http=options.stateless,
        event_store=store,
        retry_interval=options.retry_interval,
    )
    if store is not None:
        _cutter = StreamCutter(starlette_app)
        starlette_app = _cutter
    app = ForgetAfterResponse(starlette_app, options.verbose, options.handshake_only)
    try:
        sock = bind(options.port)
    except OSError as error:
        sys.exit(f"streamable_server: cannot bind 127.0.0.1:{options.port}: {error}")
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        log_config=None,
        log_level="info" if options.verbose else "warning",
        access_log=False,
        timeout_graceful_shutdown=1,
        lifespan="on",
    )
    uvicorn_server = uvicorn.Server(config)
    loop = asyncio.get_running_loop()

    def stop() -> None:
        uvicorn_server.should_exit = True
        # Open SSE streams can keep a graceful shutdown waiting; do not outlive the test.
        deadline = threading.Timer(3.0, lambda: os._exit(0))
        deadline.daemon = True
        deadline.start()

    serving = asyncio.create_task(uvicorn_server.serve(sockets=[sock]))
    while not uvicorn_server.started:
        if serving.done():
            await serving
            sys.exit("streamable_server: uvicorn stopped before it started")
        await asyncio.sleep(0.01)
    sys.stdout.write(f"PORT {port}\n")
    sys.stdout.flush()
    if not options.ignore_stdin:
        watch_stdin(lambda: loop.call_soon_threadsafe(stop))
    await serving


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0, help="port to bind on 127.0.0.1 (default 0: a free one)")
    parser.add_argument("--path", default="/mcp", help="the MCP endpoint's path (default /mcp)")
    parser.add_argument("--json-response", action="store_true", help="answer request POSTs with JSON, not SSE")
    parser.add_argument("--stateless", action="store_true", help="2025 era without sessions")
    parser.add_argument("--page-size", type=int, default=0, help="tools/list page size (default 0: one page)")
    parser.add_argument("--extra-tools", type=int, default=0, help="register N more tools extra_00...")
    parser.add_argument(
        "--handshake-only", action="store_true", help="refuse 2026-07-28 requests as a server from before it would"
    )
    parser.add_argument("--verbose", action="store_true", help="log every HTTP request to standard error")
    parser.add_argument("--ignore-stdin", action="store_true", help="keep serving when standard input closes")
    parser.add_argument(
        "--event-store", action="store_true", help="resumable streams (an in-memory event store) and the tools that cut them"
    )
    parser.add_argument(
        "--retry-interval", type=int, default=None, help="the retry (ms) of priming events (with --event-store)"
    )
    options = parser.parse_args()
    if options.page_size < 0 or options.extra_tools < 0:
        parser.error("--page-size and --extra-tools must not be negative")
    if options.retry_interval is not None and (options.retry_interval < 0 or not options.event_store):
        parser.error("--retry-interval takes milliseconds, and needs --event-store")
    return options


if __name__ == "__main__":
    options = parse_arguments()
    logging.basicConfig(
        level=logging.INFO if options.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        force=True,
    )
    for index in range(options.extra_tools):
        name = f"extra_{index:02d}"
        server.add_tool(_make_dynamic_tool(name), name=name, description=f"Extra tool {index}.")
    if options.page_size > 0:
        install_pagination(options.page_size)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(options))
