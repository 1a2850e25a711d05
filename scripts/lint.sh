#!/usr/bin/env bash
# Checks the Swift files' layout with the toolchain's formatter (`swift format lint --strict`,
# configured by `.swift-format` at the root): any finding fails.
#
#   scripts/lint.sh              the Swift files changed since $LINT_BASE (a commit), or, without
#                                it, since the upstream branch's merge base when there is one;
#                                on a clean clone with neither, every Swift file (about 15 s)
#   scripts/lint.sh --all        every Swift file of Sources, Tests, Benchmarks, Examples, Contracts
#   scripts/lint.sh FILE...      those files
#
# To fix what it reports: `swift format format -i FILE...` (same configuration).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

roots=(Sources Tests Benchmarks Examples Contracts Package.swift)
files=()
if [ "$#" -gt 0 ] && [ "$1" != "--all" ]; then
    files=("$@")
elif [ "$#" -eq 0 ]; then
    base="${LINT_BASE:-}"
    if [ -z "$base" ] && upstream=$(git rev-parse --abbrev-ref --symbolic-full-name '@{upstream}' 2>/dev/null); then
        base=$(git merge-base HEAD "$upstream")
        # A clean clone's upstream is HEAD itself: nothing changed against it, so check everything.
        [ "$base" = "$(git rev-parse HEAD)" ] && base=""
    fi
    if [ -n "$base" ]; then
        echo "lint: Swift files changed since $(git rev-parse --short "$base")"
        while IFS= read -r file; do
            [ -f "$file" ] && files+=("$file")
        done < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.swift')
        if [ "${#files[@]}" -eq 0 ]; then
            echo "lint: no Swift file changed"
            exit 0
        fi
    fi
fi
if [ "${#files[@]}" -eq 0 ]; then
    echo "lint: every Swift file"
    while IFS= read -r file; do
        files+=("$file")
    done < <(find "${roots[@]}" -name '*.swift' -not -path '*/.build/*' | sort)
fi
swift format lint --strict --parallel "${files[@]}"
echo "lint: ${#files[@]} files, no finding"
