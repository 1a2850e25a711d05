#!/usr/bin/env bash
# Creates .venv with the Python MCP peers the interop tests and benchmarks talk to
# (Tests/Interop/requirements.txt). Does nothing when .venv already matches the file.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

requirements=Tests/Interop/requirements.txt
stamp=.venv/.requirements.sha256
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    exit 0
fi

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
    echo "bootstrap-python: $python is missing or older than 3.10; the mcp SDK needs 3.10+" >&2
    exit 1
fi
if ! "$python" -m venv --help >/dev/null 2>&1; then
    echo "bootstrap-python: installing python3-venv" >&2
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
fi
rm -rf .venv
"$python" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
echo "$wanted" > "$stamp"
echo "bootstrap-python: .venv ready ($(.venv/bin/python -c 'import mcp, importlib.metadata as m; print("mcp", m.version("mcp"))'))" >&2
