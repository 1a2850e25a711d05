#!/usr/bin/env bash
# Builds the libraries on Linux as iOS, visionOS, watchOS and tvOS get them: without
# MCP_CAN_SPAWN (no ProcessTransport, no process box), warnings as errors. Apple's SDKs are not
# here, so this is the one check that code compiled out where apps cannot start processes
# still builds without it (MCPPlatform keeps its Linux-only code, which those systems never
# compile).
#
#   bash scripts/check-no-spawn.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for target in MCP MCPAgent MCPFoundationModels MCPHTTP ChatCompletions; do
    ONDEVICE_MCP_CHECK_NO_SPAWN=1 swift build --scratch-path "$work" --target "$target" -Xswiftc -warnings-as-errors
done
echo "check-no-spawn: the libraries build without MCP_CAN_SPAWN, as on iOS"
