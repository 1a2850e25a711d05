"""Drives `ondevice-mcp serve` with the official MCP Python SDK (mcp 2.3.0) over stdio.

    python_client.py --server PATH/TO/ondevice-mcp --mode legacy|2026-07-28|auto [--data-dir DIR]

Spawns `ondevice-mcp serve --data-dir DIR` (a fresh temporary directory by default),
connects in the given mode (`legacy`: the initialize handshake, offering 2025-11-25;
`2026-07-28`: the modern era adopted directly, every request carrying the envelope;
`auto`: the SDK's server/discover probe), lists the tools and calls each of them.

Prints one JSON object on standard output summarising what it observed, and exits with
status 1 (with one line per mismatch on standard error) when anything differs from what
the example tools promise; status 2 for a usage or connection failure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
from datetime import datetime, timezone
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

EXPECTED_TOOLS = ["clock_now", "notes_add", "notes_delete", "notes_list", "notes_search"]
EXPECTED_VERSION = {"legacy": "2025-11-25", "2026-07-28": "2026-07-28", "auto": "2026-07-28"}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class Checker:
    def __init__(self) -> None:
        self.failures: list[str] = []

    def expect(self, condition: bool, message: str) -> bool:
        if not condition:
            self.failures.append(message)
        return condition


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")


def summary_of(result: Any) -> dict[str, Any]:
    return {"isError": bool(result.is_error), "text": text_of(result), "structuredContent": result.structured_content}


async def run(server: str, mode: str, data_dir: str) -> tuple[dict[str, Any], list[str]]:
    check = Checker()
    params = StdioServerParameters(command=server, args=["serve", "--data-dir", data_dir])
    observed: dict[str, Any] = {"mode": mode}
    async with Client(params, mode=mode) as client:
        observed["protocolVersion"] = client.protocol_version
        info = client.server_info
        observed["serverInfo"] = None if info is None else {"name": info.name, "version": info.version}
        check.expect(
            client.protocol_version == EXPECTED_VERSION[mode],
            f"negotiated {client.protocol_version}, expected {EXPECTED_VERSION[mode]}",
        )
        if info is not None:
            check.expect(info.name == "ondevice-mcp", f"serverInfo.name is {info.name!r}, expected 'ondevice-mcp'")
        elif mode != "2026-07-28":  # adopting a version directly skips server/discover, which carries serverInfo
            check.expect(False, "the server did not identify itself")
        capabilities = client.server_capabilities
        if mode == "2026-07-28":
            # Adopting the version directly installs a synthesized DiscoverResult; ask the
            # server for the real one (an enveloped request, so the era stays modern).
            raw = await client.session.send_discover("2026-07-28")
            observed["discover"] = {
                "supportedVersions": raw.get("supportedVersions"),
                "resultType": raw.get("resultType"),
                "serverInfo": (raw.get("_meta") or {}).get("io.modelcontextprotocol/serverInfo"),
            }
            capabilities_tools = (raw.get("capabilities") or {}).get("tools")
            check.expect(
                "2026-07-28" in (raw.get("supportedVersions") or []),
                f"server/discover lists {raw.get('supportedVersions')!r}",
            )
            check.expect(raw.get("resultType") == "complete", f"server/discover resultType is {raw.get('resultType')!r}")
            check.expect(
                (observed["discover"]["serverInfo"] or {}).get("name") == "ondevice-mcp",
                f"server/discover serverInfo is {observed['discover']['serverInfo']!r}",
            )
        else:
            capabilities_tools = capabilities.tools
            if client.session.discover_result is not None:
                observed["discover"] = {"supportedVersions": client.session.discover_result.supported_versions}
        observed["toolsCapability"] = capabilities_tools is not None
        check.expect(capabilities_tools is not None, "the server does not declare the tools capability")

        # tools/list
        listed = await client.list_tools()
        tools = {tool.name: tool for tool in listed.tools}
        observed["tools"] = [tool.name for tool in listed.tools]
        observed["nextCursor"] = listed.next_cursor
        check.expect(sorted(tools) == EXPECTED_TOOLS, f"tools are {sorted(tools)}, expected {EXPECTED_TOOLS}")
        check.expect(listed.next_cursor is None, f"tools/list has a nextCursor {listed.next_cursor!r}")
        observed["toolTitles"] = {tool.name: tool.title for tool in listed.tools}
        observed["outputSchemas"] = sorted(name for name, tool in tools.items() if tool.output_schema is not None)
        if "notes_add" in tools:
            schema = tools["notes_add"].input_schema
            check.expect(
                sorted(schema.get("required", [])) == ["body", "title"],
                f"notes_add requires {schema.get('required')}, expected title and body",
            )
        for name, tool in tools.items():
            check.expect(tool.input_schema.get("type") == "object", f"{name}'s inputSchema is not an object schema")
            check.expect(tool.output_schema is not None, f"{name} has no outputSchema")

        # clock_now in a named zone. The SDK validates structuredContent against outputSchema.
        before = datetime.now(timezone.utc)
        clock = await client.call_tool("clock_now", {"timezone": "Asia/Tokyo"})
        after = datetime.now(timezone.utc)
        observed["clock"] = summary_of(clock)
        reading = clock.structured_content or {}
        check.expect(not clock.is_error, f"clock_now failed: {text_of(clock)}")
        check.expect(reading.get("timezone") == "Asia/Tokyo", f"clock_now timezone is {reading.get('timezone')!r}")
        check.expect(reading.get("utcOffsetSeconds") == 32400, f"clock_now offset is {reading.get('utcOffsetSeconds')!r}")
        check.expect(reading.get("weekday") in WEEKDAYS, f"clock_now weekday is {reading.get('weekday')!r}")
        iso = reading.get("iso8601", "")
        if check.expect(
            re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00", iso or "") is not None,
            f"clock_now iso8601 is {iso!r}",
        ):
            moment = datetime.fromisoformat(iso)
            check.expect(
                before.replace(microsecond=0) <= moment <= after,
                f"clock_now says {iso}, but it was between {before.isoformat()} and {after.isoformat()}",
            )
            check.expect(WEEKDAYS[moment.weekday()] == reading.get("weekday"), f"{iso} is not a {reading.get('weekday')}")
        check.expect(
            text_of(clock) == f"{iso} (Asia/Tokyo, {reading.get('weekday')})",
            f"clock_now text is {text_of(clock)!r}",
        )

        # clock_now in UTC: recorded, not checked here (the Swift test knows an issue with it).
        observed["clockUTC"] = summary_of(await client.call_tool("clock_now", {"timezone": "UTC"}))

        # clock_now with a zone that does not exist: a tool error, not a protocol error.
        bad_zone = await client.call_tool("clock_now", {"timezone": "Mars/Olympus_Mons"})
        observed["invalidTimezone"] = summary_of(bad_zone)
        check.expect(bad_zone.is_error, "clock_now with an invalid time zone did not set isError")
        check.expect(
            'Unknown time zone "Mars/Olympus_Mons"' in text_of(bad_zone),
            f"clock_now with an invalid time zone says {text_of(bad_zone)!r}",
        )

        # notes: add, search, list, delete, search again.
        added = await client.call_tool("notes_add", {"title": "Interop check", "body": "Written by the Python SDK"})
        observed["notesAdd"] = summary_of(added)
        note = added.structured_content or {}
        note_id = note.get("id")
        check.expect(not added.is_error, f"notes_add failed: {text_of(added)}")
        check.expect(isinstance(note_id, str) and note_id != "", f"notes_add returned no id: {note!r}")
        check.expect(note.get("title") == "Interop check", f"notes_add title is {note.get('title')!r}")
        check.expect(note.get("body") == "Written by the Python SDK", f"notes_add body is {note.get('body')!r}")
        check.expect(text_of(added) == f"Added note {note_id}: Interop check", f"notes_add text is {text_of(added)!r}")

        found = await client.call_tool("notes_search", {"query": "python sdk"})
        observed["notesSearch"] = summary_of(found)
        hits = (found.structured_content or {}).get("notes", [])
        check.expect([hit.get("id") for hit in hits] == [note_id], f"notes_search found {hits!r}")
        check.expect((found.structured_content or {}).get("total") == 1, "notes_search total is not 1")

        listing = await client.call_tool("notes_list", {"limit": 5})
        observed["notesList"] = summary_of(listing)
        check.expect((listing.structured_content or {}).get("total") == 1, f"notes_list is {listing.structured_content!r}")
        check.expect(
            [n.get("id") for n in (listing.structured_content or {}).get("notes", [])] == [note_id],
            "notes_list does not list exactly the new note",
        )

        deleted = await client.call_tool("notes_delete", {"id": note_id})
        observed["notesDelete"] = summary_of(deleted)
        check.expect(not deleted.is_error, f"notes_delete failed: {text_of(deleted)}")
        check.expect(
            ((deleted.structured_content or {}).get("deleted") or {}).get("id") == note_id,
            f"notes_delete returned {deleted.structured_content!r}",
        )

        gone = await client.call_tool("notes_search", {"query": "python sdk"})
        observed["notesSearchAfterDelete"] = summary_of(gone)
        check.expect((gone.structured_content or {}).get("total") == 0, f"the deleted note is still found: {gone.structured_content!r}")
        check.expect(text_of(gone) == 'No notes matching "python sdk".', f"notes_search text is {text_of(gone)!r}")

        again = await client.call_tool("notes_delete", {"id": note_id})
        observed["notesDeleteAgain"] = summary_of(again)
        check.expect(again.is_error, "deleting a deleted note did not set isError")

        # A tool that does not exist: a protocol error, -32602.
        try:
            unknown = await client.call_tool("no_such_tool", {})
            observed["unknownTool"] = {"kind": "result", **summary_of(unknown)}
            check.expect(False, f"calling an unknown tool returned a result: {summary_of(unknown)!r}")
        except MCPError as error:
            observed["unknownTool"] = {"kind": "error", "code": error.code, "message": error.message}
            check.expect(error.code == -32602, f"an unknown tool gave error {error.code}, expected -32602")
            check.expect("no_such_tool" in error.message, f"the unknown-tool error says {error.message!r}")

    return observed, check.failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="path of the ondevice-mcp executable")
    parser.add_argument("--mode", required=True, choices=sorted(EXPECTED_VERSION))
    parser.add_argument("--data-dir", help="the notes directory (default: a fresh temporary directory)")
    arguments = parser.parse_args()

    try:
        if arguments.data_dir:
            observed, failures = asyncio.run(run(arguments.server, arguments.mode, arguments.data_dir))
        else:
            with tempfile.TemporaryDirectory(prefix="ondevice-mcp-interop-") as directory:
                observed, failures = asyncio.run(run(arguments.server, arguments.mode, directory))
    except Exception as error:  # the connection or a call failed outright
        print(f"python_client ({arguments.mode}): {type(error).__name__}: {error}", file=sys.stderr)
        return 2

    print(json.dumps(observed, sort_keys=True))
    for failure in failures:
        print(f"python_client ({arguments.mode}): {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
