#!/usr/bin/env bash
# Runs every test of OnDeviceMCP on a fresh machine: sets up the Python interop peers
# (.venv), then builds with warnings as errors and runs `swift test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/bootstrap-python.sh
export ONDEVICE_MCP_PYTHON="$PWD/.venv/bin/python"
swift test -Xswiftc -warnings-as-errors "$@"
