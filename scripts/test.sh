#!/usr/bin/env bash
# Runs every test of OnDeviceMCP on a fresh machine: sets up what the tests need, then
# builds with warnings as errors and runs `swift test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

swift test -Xswiftc -warnings-as-errors "$@"
