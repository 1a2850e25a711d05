#!/usr/bin/env bash
# Runs every test of OnDeviceMCP on a fresh machine: sets up the Python interop peers and the
# real model (.venv), then builds with warnings as errors and runs `swift test`.
#
# Without arguments the suite runs in three parts: everything but the real model's tests, the
# transport suites again on threads (ONDEVICE_MCP_TRANSPORT_LOOP=0), then the real model's tests
# alone. llama.cpp's server keeps both cores of a small machine busy while it answers,
# which would starve the other tests (their hang guards then fire for tests merely waiting);
# on their own, the real model's tests take about three minutes. Extra arguments go to one
# `swift test` run as they are (for example --filter RealModelTests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/bootstrap-python.sh
export ONDEVICE_MCP_PYTHON="$PWD/.venv/bin/python"
# A thousand tests starting at once on two cores starve the cooperative pool for tens of
# seconds, so hang guards (20–60 s) can fire for tests merely waiting to run. Swift Testing's
# width limit keeps the suite parallel without that burst; override it if you like.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-4}"
source scripts/run-tests.sh
if [ "$#" -gt 0 ]; then
    run_tests -Xswiftc -warnings-as-errors "$@"
    exit
fi
run_tests -Xswiftc -warnings-as-errors --skip RealModelTests
# The descriptor transports again on threads of their own, the engine where there is no event
# loop (Darwin for now) and for descriptors the kernel cannot poll (~2 minutes).
ONDEVICE_MCP_TRANSPORT_LOOP=0 run_tests --skip-build --filter 'MCPTests\.|HostilePeerTests\.|InteropTests\.'
run_tests -Xswiftc -warnings-as-errors --skip-build --filter RealModelTests
