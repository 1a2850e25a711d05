#!/usr/bin/env bash
# Sourced by scripts/test.sh and scripts/test-tsan.sh.
# Runs `swift test` with the given arguments; when it fails, repeats the failures at the end
# (a CI log that keeps only its tail would otherwise lose them among a thousand passing lines).
run_tests() {
    local log status
    log="$(mktemp)"
    set +e
    swift test "$@" 2>&1 | tee "$log"
    status="${PIPESTATUS[0]}"
    set -e
    if [ "$status" -ne 0 ]; then
        echo "---- what failed (swift test $*) ----"
        grep -a -A 6 '✘' "$log" | grep -av '^\(◇\|✔\)' | head -n 120 || true
    fi
    rm -f "$log"
    return "$status"
}
