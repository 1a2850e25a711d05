"""A deliberately broken (or merely slow, or merely old) HTTP server, for our HTTP client's failure tests.

    .venv/bin/python Tests/Interop/http/hostile_http_server.py --mode MODE [--port N] [--delay S]
        [--huge-bytes N] [--no-content-length] [--ignore-stdin]

Plain asyncio sockets, no MCP SDK: every byte it sends is written here by hand. Binds
127.0.0.1 (port 0, a free one, unless --port), prints exactly one line `PORT <n>` on
standard output, then serves until it is killed or its standard input closes (unless
--ignore-stdin). Standard error gets one line per request (`hostile[MODE] #N METHOD PATH`);
nothing else is ever written to standard output.

Every mode answers every request the same way, whatever its method (POST, GET, DELETE...)
and path, except where the mode says otherwise, and except `GET /__hostile/count`, which in
every mode answers `200 {"requests": N}` (application/json): N counts every other request
received so far (a request is counted once its head has been read). HTTP/1.1 keep-alive is
honoured where a response is complete (several requests may arrive on one connection).

Modes:
- `hang-before-headers`: reads the request and never answers; the connection stays open until
  the client closes it.
- `hang-mid-stream`: `200`, `Content-Type: text/event-stream`, chunked; one event
  (`event: message` + a `notifications/progress` whose token is the request's
  `params._meta.progressToken`, or "hostile" when it has none), then silence forever.
- `huge`: `200`, `Content-Type: application/json`, `Content-Length: 67108864`, and a 64 MiB
  body streamed in 1 MiB writes: a valid JSON-RPC response for the request's id
  (`{"jsonrpc":"2.0","id":ID,"result":{"padding":"xxxx..."}}`). --no-content-length sends it
  chunked instead; --huge-bytes changes the size.
- `html-200`: `200`, `Content-Type: text/html; charset=utf-8`, body
  `<html><body><h1>Welcome</h1><p>This is not an MCP server.</p></body></html>`.
- `status-500`: `500`, `Content-Type: text/plain; charset=utf-8`, body `Internal Server Error`.
- `close-mid-event`: `200`, `Content-Type: text/event-stream`, chunked; one chunk with half an
  event (`event: message\\r\\ndata: {"jsonrpc":`), then the connection is closed (no final
  chunk: the body is truncated).
- `unauthorized`: `401`, `WWW-Authenticate: Bearer
  resource_metadata="http://127.0.0.1:<port>/.well-known/oauth-protected-resource", scope="mcp"`,
  `Content-Type: application/json`, body
  `{"error":"invalid_token","error_description":"Authentication required"}`. The metadata URL
  gets the same 401: there is no authorization server behind it.
- `slow-headers`: waits --delay seconds (2) before the status line, then answers as a minimal
  but correct stateless Streamable HTTP server (no session ids, `application/json` bodies):
  `initialize` (the client's version if it is 2024-11-05...2025-11-25, else 2025-11-25),
  `server/discover` (supportedVersions ["2026-07-28"]), `ping`, `tools/list` (one tool,
  `echo(text)`), `tools/call` `echo`; a request whose `params._meta` carries
  `io.modelcontextprotocol/protocolVersion: 2026-07-28` gets `resultType: "complete"` in its
  result (and `cacheScope: "private"`, `ttlMs: 0` for server/discover and tools/list). Headers
  are not checked. A notification or response gets `202`; GET and DELETE get `405`
  (`Allow: POST`); an unknown method the JSON-RPC error -32601 (HTTP 200).
- `legacy-sse`: the 2024-11-05 HTTP+SSE transport. POST to any path but `/messages` gets `405`
  (`Allow: GET`), as a Streamable HTTP client's first POST would; GET on any path but
  `/messages` (so `/`, `/sse`, `/mcp`) opens an SSE stream (chunked) whose first event is
  `event: endpoint` with `data: /messages?session_id=<32 hex>`; a POST of a JSON-RPC message
  to that URL gets `202 Accepted` (body `Accepted`) and the response arrives on the SSE stream
  as `event: message`. An unknown session_id gets `404`, a missing one `400`; DELETE gets
  `405`. The responder is the slow-headers one (without its delay) as a server of 2024-11-05
  would be: `initialize` always answers protocolVersion 2024-11-05, and `server/discover` is
  -32601 (Method not found). The stream sends a `: ping` comment every 15 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

MODES = (
    "hang-before-headers",
    "hang-mid-stream",
    "huge",
    "html-200",
    "status-500",
    "close-mid-event",
    "unauthorized",
    "slow-headers",
    "legacy-sse",
)

KNOWN_HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSION = "2026-07-28"
REASONS = {
    200: "OK",
    202: "Accepted",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
    500: "Internal Server Error",
}
HTML_BODY = b"<html><body><h1>Welcome</h1><p>This is not an MCP server.</p></body></html>"


@dataclass
class Request:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes
    path: str = ""
    query: dict[str, list[str]] = field(default_factory=dict)

    def json(self) -> Any:
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None

    @property
    def keep_alive(self) -> bool:
        return self.headers.get("connection", "").lower() != "close"


class BadRequest(Exception):
    pass


async def read_request(reader: asyncio.StreamReader) -> Request | None:
    """One HTTP/1.1 request, or None at a clean end of the connection."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as error:
        if error.partial.strip():
            raise BadRequest("truncated request head") from error
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        raise BadRequest(f"bad request line {lines[0]!r}")
    method, target, _version = parts
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = b""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                    pass
                break
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(chunks)
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    split = urlsplit(target)
    return Request(method, target, headers, body, split.path or "/", parse_qs(split.query))


def head_bytes(status: int, headers: list[tuple[str, str]]) -> bytes:
    lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Unknown')}"]
    lines += [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def send_response(
    writer: asyncio.StreamWriter, status: int, body: bytes = b"", content_type: str | None = None, extra=()
) -> None:
    headers = [("Server", "hostile")]
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    headers.append(("Content-Length", str(len(body))))
    headers += list(extra)
    writer.write(head_bytes(status, headers) + body)
    await writer.drain()


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def sse_event(event: str, data: str) -> bytes:
    return f"event: {event}\r\ndata: {data}\r\n\r\n".encode()


def jsonrpc_id(message: Any) -> Any:
    return message.get("id") if isinstance(message, dict) else None


def respond_to(message: Any, handshake_versions: tuple[str, ...], modern_capable: bool) -> dict[str, Any] | None:
    """The minimal JSON-RPC responder of slow-headers and legacy-sse: a response, or None for a notification.

    With `modern_capable` it also answers `server/discover` and 2026-07-28 requests (whose results
    carry `resultType`, and `cacheScope`/`ttlMs` where 2026-07-28 makes a result cacheable).
    """
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    if "method" not in message or "id" not in message:
        return None  # a notification (or a response to us): nothing to answer
    method = message["method"]
    params = message.get("params") or {}
    meta = params.get("_meta") or {} if isinstance(params, dict) else {}
    modern = modern_capable and meta.get("io.modelcontextprotocol/protocolVersion") == MODERN_VERSION
    server_info = {"name": "hostile", "version": "1.0.0"}

    def ok(result: dict[str, Any], cacheable: bool = False) -> dict[str, Any]:
        if modern:
            result = {**result, "resultType": "complete"}
            if cacheable:
                result |= {"cacheScope": "private", "ttlMs": 0}
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}

    if method == "initialize":
        requested = params.get("protocolVersion")
        version = requested if requested in handshake_versions else handshake_versions[-1]
        return ok({"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": server_info})
    if method == "server/discover" and modern_capable:
        return ok(
            {
                "supportedVersions": [MODERN_VERSION],
                "capabilities": {"tools": {}},
                "_meta": {"io.modelcontextprotocol/serverInfo": server_info},
            },
            cacheable=True,
        )
    if method == "ping":
        return ok({})
    if method == "tools/list":
        schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
        tool = {"name": "echo", "description": "Returns its input unchanged.", "inputSchema": schema}
        return ok({"tools": [tool]}, cacheable=True)
    if method == "tools/call" and isinstance(params, dict) and params.get("name") == "echo":
        text = str((params.get("arguments") or {}).get("text", ""))
        return ok({"content": [{"type": "text", "text": text}], "isError": False})
    if method == "tools/call":
        return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": "Unknown tool"}}
    return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}


class HostileServer:
    def __init__(self, options: argparse.Namespace) -> None:
        self.mode: str = options.mode
        self.delay: float = options.delay
        self.huge_bytes: int = options.huge_bytes
        self.content_length: bool = not options.no_content_length
        self.port = 0
        self.requests = 0
        self.sse_sessions: dict[str, asyncio.Queue[bytes | None]] = {}

    def log(self, text: str) -> None:
        print(f"hostile[{self.mode}] {text}", file=sys.stderr, flush=True)

    async def handle_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    request = await read_request(reader)
                except (BadRequest, ValueError, asyncio.LimitOverrunError, asyncio.IncompleteReadError) as error:
                    self.log(f"unreadable request: {error}")
                    await send_response(writer, 400, b"Bad Request", "text/plain; charset=utf-8", [("Connection", "close")])
                    return
                if request is None:
                    return
                if request.method == "GET" and request.path == "/__hostile/count":
                    body = json.dumps({"requests": self.requests}).encode()
                    await send_response(writer, 200, body, "application/json")
                    if not request.keep_alive:
                        return
                    continue
                self.requests += 1
                self.log(f"#{self.requests} {request.method} {request.target}")
                keep_going = await self.answer(request, reader, writer)
                if not keep_going or not request.keep_alive:
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except Exception as error:  # noqa: BLE001
            self.log(f"connection failed: {type(error).__name__}: {error}")
        finally:
            try:
                writer.close()
                await writer.wait_closed()
            except Exception:  # noqa: BLE001
                pass

    async def wait_for_close(self, reader: asyncio.StreamReader) -> None:
        while await reader.read(65536):
            pass

    async def answer(self, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Answers one request; True when the connection may carry another."""
        mode = self.mode
        if mode == "hang-before-headers":
            await self.wait_for_close(reader)
            return False
        if mode == "hang-mid-stream":
            message = request.json()
            params = message.get("params") if isinstance(message, dict) else None
            meta = params.get("_meta") if isinstance(params, dict) else None
            token = meta.get("progressToken", "hostile") if isinstance(meta, dict) else "hostile"
            event = {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": token, "progress": 1, "message": "and then nothing"},
            }
            writer.write(
                head_bytes(
                    200,
                    [
                        ("Server", "hostile"),
                        ("Content-Type", "text/event-stream"),
                        ("Cache-Control", "no-cache"),
                        ("Transfer-Encoding", "chunked"),
                    ],
                )
                + chunk(sse_event("message", json.dumps(event, separators=(",", ":"))))
            )
            await writer.drain()
            await self.wait_for_close(reader)
            return False
        if mode == "huge":
            await self.send_huge(request, writer)
            return True
        if mode == "html-200":
            await send_response(writer, 200, HTML_BODY, "text/html; charset=utf-8")
            return True
        if mode == "status-500":
            await send_response(writer, 500, b"Internal Server Error", "text/plain; charset=utf-8")
            return True
        if mode == "close-mid-event":
            writer.write(
                head_bytes(
                    200,
                    [
                        ("Server", "hostile"),
                        ("Content-Type", "text/event-stream"),
                        ("Cache-Control", "no-cache"),
                        ("Transfer-Encoding", "chunked"),
                    ],
                )
                + chunk(b'event: message\r\ndata: {"jsonrpc":')
            )
            await writer.drain()
            return False
        if mode == "unauthorized":
            metadata = f"http://127.0.0.1:{self.port}/.well-known/oauth-protected-resource"
            body = b'{"error":"invalid_token","error_description":"Authentication required"}'
            challenge = f'Bearer resource_metadata="{metadata}", scope="mcp"'
            await send_response(writer, 401, body, "application/json", [("WWW-Authenticate", challenge)])
            return True
        if mode == "slow-headers":
            await asyncio.sleep(self.delay)
            await self.answer_streamable(request, writer)
            return True
        if mode == "legacy-sse":
            return await self.answer_legacy_sse(request, reader, writer)
        raise AssertionError(mode)

    async def send_huge(self, request: Request, writer: asyncio.StreamWriter) -> None:
        message_id = json.dumps(jsonrpc_id(request.json()))
        prefix = f'{{"jsonrpc":"2.0","id":{message_id},"result":{{"padding":"'.encode()
        suffix = b'"}}'
        padding = max(0, self.huge_bytes - len(prefix) - len(suffix))
        headers = [("Server", "hostile"), ("Content-Type", "application/json")]
        headers.append(("Content-Length", str(len(prefix) + padding + len(suffix))) if self.content_length
                       else ("Transfer-Encoding", "chunked"))
        frame = (lambda data: data) if self.content_length else chunk
        writer.write(head_bytes(200, headers) + frame(prefix))
        block = b"x" * (1 << 20)
        while padding > 0:
            piece = block[: min(padding, len(block))]
            writer.write(frame(piece))
            await writer.drain()
            padding -= len(piece)
        writer.write(frame(suffix) + (b"" if self.content_length else b"0\r\n\r\n"))
        await writer.drain()

    async def answer_streamable(self, request: Request, writer: asyncio.StreamWriter) -> None:
        if request.method != "POST":
            await send_response(writer, 405, b"", None, [("Allow", "POST")])
            return
        message = request.json()
        if message is None:
            body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
            await send_response(writer, 400, json.dumps(body, separators=(",", ":")).encode(), "application/json")
            return
        reply = respond_to(message, KNOWN_HANDSHAKE_VERSIONS, modern_capable=True)
        if reply is None:
            await send_response(writer, 202)
            return
        await send_response(writer, 200, json.dumps(reply, separators=(",", ":")).encode(), "application/json")

    async def answer_legacy_sse(
        self, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        if request.path == "/messages":
            if request.method != "POST":
                await send_response(writer, 405, b"Method Not Allowed", "text/plain", [("Allow", "POST")])
                return True
            session_ids = request.query.get("session_id")
            if not session_ids:
                await send_response(writer, 400, b"session_id is required", "text/plain")
                return True
            queue = self.sse_sessions.get(session_ids[0])
            if queue is None:
                await send_response(writer, 404, b"Could not find session", "text/plain")
                return True
            message = request.json()
            if message is None:
                await send_response(writer, 400, b"Could not parse message", "text/plain")
                return True
            await send_response(writer, 202, b"Accepted", "text/plain")
            reply = respond_to(message, ("2024-11-05",), modern_capable=False)
            if reply is not None:
                await queue.put(sse_event("message", json.dumps(reply, separators=(",", ":"))))
            return True
        if request.method == "GET":
            session_id = uuid.uuid4().hex
            queue: asyncio.Queue[bytes | None] = asyncio.Queue()
            self.sse_sessions[session_id] = queue
            writer.write(
                head_bytes(
                    200,
                    [
                        ("Server", "hostile"),
                        ("Content-Type", "text/event-stream"),
                        ("Cache-Control", "no-store"),
                        ("Transfer-Encoding", "chunked"),
                    ],
                )
                + chunk(sse_event("endpoint", f"/messages?session_id={session_id}"))
            )
            await writer.drain()
            closed = asyncio.ensure_future(self.wait_for_close(reader))
            try:
                while not closed.done():
                    getter = asyncio.ensure_future(queue.get())
                    done, _ = await asyncio.wait({getter, closed}, timeout=15, return_when=asyncio.FIRST_COMPLETED)
                    if getter in done:
                        writer.write(chunk(getter.result()))
                    else:
                        getter.cancel()
                        if not done:
                            writer.write(chunk(b": ping\r\n\r\n"))
                    await writer.drain()
            finally:
                closed.cancel()
                del self.sse_sessions[session_id]
                self.log(f"SSE session {session_id} closed")
            return False
        await send_response(writer, 405, b"Method Not Allowed", "text/plain", [("Allow", "GET")])
        return True


def watch_stdin() -> None:
    def run() -> None:
        try:
            while sys.stdin.buffer.read1(65536):
                pass
        except Exception:  # noqa: BLE001
            pass
        sys.stderr.flush()
        os._exit(0)

    threading.Thread(target=run, name="stdin-watch", daemon=True).start()


async def main(options: argparse.Namespace) -> None:
    hostile = HostileServer(options)
    try:
        server = await asyncio.start_server(hostile.handle_connection, "127.0.0.1", options.port, limit=1 << 20)
    except OSError as error:
        sys.exit(f"hostile_http_server: cannot bind 127.0.0.1:{options.port}: {error}")
    hostile.port = server.sockets[0].getsockname()[1]
    sys.stdout.write(f"PORT {hostile.port}\n")
    sys.stdout.flush()
    if not options.ignore_stdin:
        watch_stdin()
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", required=True, choices=MODES)
    parser.add_argument("--port", type=int, default=0, help="port to bind on 127.0.0.1 (default 0: a free one)")
    parser.add_argument("--delay", type=float, default=2.0, help="slow-headers: seconds before answering (2)")
    parser.add_argument("--huge-bytes", type=int, default=64 << 20, help="huge: body size in bytes (64 MiB)")
    parser.add_argument("--no-content-length", action="store_true", help="huge: send the body chunked")
    parser.add_argument("--ignore-stdin", action="store_true", help="keep serving when standard input closes")
    try:
        asyncio.run(main(parser.parse_args()))
    except KeyboardInterrupt:
        pass
