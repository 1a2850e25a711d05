#!/usr/bin/env bash
# Runs every test of OnDeviceMCP under ThreadSanitizer: sets up the Python interop peers
# (.venv), then builds everything (the test bundle, ondevice-mcp and HostilePeer, which the
# tests run as child processes) with -sanitize=thread into .build-tsan, warnings as errors.
#
# A data race anywhere fails the run: TSAN_OPTIONS sets halt_on_error=1, so the first report
# ends the process (test bundle or child) with status 66 instead of a warning that scrolls by.
# Without it, TSan still exits with 66 at the end of a process that reported, but a child
# process's report would only show as an odd exit status.
#
# Extra arguments go to `swift test` (for example --filter HostilePeerTests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/bootstrap-python.sh
export ONDEVICE_MCP_PYTHON="$PWD/.venv/bin/python"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
# Under TSan every test runs several times slower; with all of them at once on a small
# machine, hang guards (time limits of a minute) expire for tests that are merely starved.
# Swift Testing's width limit keeps some parallelism without that; override it if you like.
# At 4 on 2 cores, a 30 s guard expired once in an HTTP test that passes alone in well under
# a second and that no stress has reproduced since; 2 leaves more headroom (the pass takes
# about 4.5 minutes instead of 3). Races inside a test are exercised the same at any width.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-2}"
swift build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
source scripts/run-tests.sh
run_tests --skip-build --sanitize=thread --scratch-path .build-tsan "$@"
