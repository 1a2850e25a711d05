#!/usr/bin/env bash
# Type-checks MCPAgent's NaturalLanguage code (the sentence embedding ToolRelevance uses on Apple
# platforms, which Linux cannot build) against scripts/naturallanguage-model: the framework's
# declarations as Apple documents them. A pass proves the code calls those names with those
# types; it does not run NaturalLanguage, which exists only on Apple platforms.
#
#   bash scripts/check-naturallanguage.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -emit-module -module-name NaturalLanguage -parse-as-library -swift-version 6 \
    scripts/naturallanguage-model/NaturalLanguage.swift -emit-module-path "$work/NaturalLanguage.swiftmodule"
# ToolRelevance itself needs the rest of MCPAgent; a stand-in is enough for this file's extension.
printf 'public struct ToolRelevance {}\n' > "$work/ToolRelevance.swift"
swiftc -typecheck -swift-version 6 -warnings-as-errors -I "$work" -module-name MCPAgent \
    Sources/MCPAgent/SentenceEmbedding.swift Sources/MCPAgent/ToolRelevance+PlatformEmbedding.swift "$work/ToolRelevance.swift"
echo "check-naturallanguage: MCPAgent's NaturalLanguage embedding type-checks against Apple's documented declarations"
