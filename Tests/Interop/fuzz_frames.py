#!/usr/bin/env python3
"""A frame fuzzer for an MCP server over stdio, with its own oracle.

Writes N frames (mutations of well-formed JSON-RPC messages: cut, NUL and control bytes,
flipped and inserted bytes, deep nesting, swapped members, odd ids, frames run together)
to the server's standard input, reads every answer line, and checks JSON-RPC 2.0 §5.1 as
an outside client would: **no answer carries an id that was not sent in a well-formed
request**. "Well-formed" is decided here, by Python's own json module (strict: no NaN or
Infinity, no duplicate keys), not by the server: a line counts only when it parses as a
JSON object (or a batch of them) with "jsonrpc": "2.0", a string "method" and a string or
integer "id".

Prints one JSON summary line; exits 1 when an answer names an id nobody sent, or the
server died.

    fuzz_frames.py --frames 50000 --seed 7 -- /path/to/ondevice-mcp serve --data-dir DIR
"""

import argparse
import json
import random
import subprocess
import sys
import threading

SEEDS = [
    {"jsonrpc": "2.0", "id": 1, "method": "ping"},
    {"jsonrpc": "2.0", "id": "p-1", "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "clock_now", "arguments": {"timezone": "Asia/Tokyo"}}},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "notes_search", "arguments": {"query": "milk"}}},
    {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "nope", "arguments": {}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}},
    # Replies to requests the server might have sent: their ids must never come back.
    {"jsonrpc": "2.0", "id": 900, "result": {"roots": [{"uri": "file:///tmp", "name": "t"}]}},
    {"jsonrpc": "2.0", "id": "s-901", "error": {"code": -32601, "message": "no"}},
    {"jsonrpc": "2.0", "id": 902, "result": {}},
]

INITIALIZE = {
    "jsonrpc": "2.0", "id": 0, "method": "initialize",
    "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
}


class Strict(Exception):
    pass


def _no_constants(name):
    raise Strict(name)


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise Strict("duplicate key")
    return dict(pairs)


def request_ids(line: bytes):
    """The ids of the well-formed requests one line holds (a batch's too)."""
    try:
        text = line.decode("utf-8", errors="strict")
        value = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_no_duplicates)
    except (ValueError, Strict, RecursionError):
        return []
    members = value if isinstance(value, list) else [value]
    ids = []
    for member in members:
        if not isinstance(member, dict) or member.get("jsonrpc") != "2.0":
            continue
        if not isinstance(member.get("method"), str) or "id" not in member:
            continue
        identifier = member["id"]
        if isinstance(identifier, bool) or not isinstance(identifier, (int, str)):
            continue
        ids.append(identifier)
    return ids


def mutate(rng: random.Random, frame: bytes) -> bytes:
    data = bytearray(frame)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        op = rng.randrange(12)
        position = rng.randrange(len(data) + 1)
        if op == 0 and data:  # cut short
            del data[position:]
        elif op == 1:  # a NUL or another control byte
            data[position:position] = bytes([rng.choice([0, 1, 8, 0x1B, 0x7F])])
        elif op == 2 and data:  # flip a byte
            index = rng.randrange(len(data))
            data[index] = rng.randrange(256)
        elif op == 3:  # a structural byte where it does not belong
            data[position:position] = rng.choice([b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"\r"])
        elif op == 4 and data:  # drop a slice
            end = min(len(data), position + rng.randrange(1, 8))
            del data[position:end]
        elif op == 5:  # deep nesting
            depth = rng.choice([50, 511, 513, 2000])
            data[position:position] = b"[" * depth
        elif op == 6:  # invalid UTF-8
            data[position:position] = rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe6\x97"])
        elif op == 7:  # another id, of any type
            replacement = rng.choice([b"7", b"-1", b'"x"', b"null", b"1.5", b"1e3", b"true", b"[1]", b"{}", b"99999999999999999999", b'"\\u0000"'])
            text = bytes(data)
            start = text.find(b'"id":')
            if start >= 0:
                start += 5
                end = start
                while end < len(text) and text[end:end + 1] not in (b",", b"}"):
                    end += 1
                data[start:end] = replacement
        elif op == 8:  # a second id member
            data[1:1] = b'"id":%d,' % rng.randrange(10_000, 20_000)
        elif op == 9:  # method and result swapped
            text = bytes(data)
            if b'"method"' in text:
                data = bytearray(text.replace(b'"method"', b'"result"', 1))
            elif b'"result"' in text:
                data = bytearray(text.replace(b'"result"', b'"method"', 1))
        elif op == 10:  # two frames run together
            data += json.dumps(rng.choice(SEEDS), separators=(",", ":")).encode()
        elif op == 11:  # the version member wrong or gone
            data = bytearray(bytes(data).replace(b'"2.0"', rng.choice([b'"1.0"', b"2.0", b'"2.0 "', b"null"]), 1))
    return bytes(data)


def frames(rng: random.Random, count: int):
    # The handshake first (2025-03-26, so batches are processed), then the fuzz.
    yield json.dumps(INITIALIZE, separators=(",", ":")).encode()
    for index in range(count):
        seed = rng.choice(SEEDS)
        if rng.random() < 0.08:
            seed = rng.sample(SEEDS, rng.randrange(1, 4))  # a batch
        text = json.dumps(seed, separators=(",", ":")).encode()
        # Fresh ids, so that an answer can be matched to what was sent.
        text = text.replace(b'"id":1,', b'"id":%d,' % (100_000 + index), 1)
        yield text if rng.random() < 0.1 else mutate(rng, text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    rng = random.Random(options.seed)

    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    answers = []

    def read():
        for line in server.stdout:
            answers.append(line.rstrip(b"\n"))

    reader = threading.Thread(target=read)
    reader.start()

    sent = set()
    lines = 0
    written = bytearray()
    for frame in frames(rng, options.frames):
        # The server splits on newlines; so does the oracle.
        for line in frame.split(b"\n"):
            lines += 1
            stripped = line[:-1] if line.endswith(b"\r") else line
            for identifier in request_ids(stripped):
                sent.add(json.dumps(identifier))
        written += frame + b"\n"
        if len(written) > 1 << 16:
            server.stdin.write(written)
            written.clear()
    server.stdin.write(written)
    server.stdin.close()
    status = server.wait(timeout=300)
    reader.join()

    unknown = []
    unreadable = 0
    null_ids = 0
    named = 0
    for line in answers:
        try:
            value = json.loads(line)
        except ValueError:
            unreadable += 1
            continue
        for member in value if isinstance(value, list) else [value]:
            identifier = member.get("id") if isinstance(member, dict) else None
            if identifier is None:
                null_ids += 1
            elif json.dumps(identifier) in sent:
                named += 1
            else:
                unknown.append(line.decode("utf-8", errors="replace")[:200])

    summary = {
        "frames": options.frames, "lines": lines, "answers": len(answers), "namedIDs": named, "nullIDs": null_ids,
        "unreadableAnswers": unreadable, "unknownIDs": len(unknown), "examples": unknown[:5], "exitStatus": status,
    }
    print(json.dumps(summary))
    sys.exit(0 if not unknown and unreadable == 0 and status == 0 else 1)


if __name__ == "__main__":
    main()
