#!/usr/bin/env bash
# Runs CMCPPlatform's kqueue backend (the event loop's readiness calls on Darwin) on Linux,
# against libkqueue: event_poll.c built with -DMCP_POLL_KQUEUE and scripts/check-kqueue.c.
#
#   bash scripts/check-kqueue.sh            against libkqueue; skipped (exit 0) without it
#   bash scripts/check-kqueue.sh --model    against scripts/kqueue-model (kqueue(2) over poll)
#
# Not part of the package build: the package never depends on libkqueue. Needs libkqueue's
# headers and library (Debian's libkqueue-dev where the archive has it; bookworm's does not);
# without them it says so and exits 0 (skipped). libkqueue mimics Darwin's kqueue but is not
# it, and the model is only the man page as read here: a pass checks the code's logic, not
# Darwin's kernel.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cflags=""
libs=""
sources=()
if [ "${1:-}" = "--model" ]; then
    echo "check-kqueue: against scripts/kqueue-model (a model of kqueue(2) over poll, not libkqueue)"
    cflags="-Iscripts/kqueue-model"
    sources=(scripts/kqueue-model/kqueue_model.c)
elif command -v pkg-config > /dev/null && pkg-config --exists libkqueue 2> /dev/null; then
    cflags="$(pkg-config --cflags libkqueue)"
    libs="$(pkg-config --libs libkqueue)"
elif [ -e /usr/include/kqueue/sys/event.h ]; then
    cflags="-I/usr/include/kqueue"
    libs="-lkqueue"
else
    echo "check-kqueue: skipped: libkqueue is not installed (no pkg-config libkqueue, no /usr/include/kqueue/sys/event.h)."
    echo "check-kqueue: install it (apt-get install libkqueue-dev, where the archive has it), or run with --model."
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc="${CC:-cc}"
# shellcheck disable=SC2086  # pkg-config's flags are words
"$cc" -std=c11 -Wall -Wextra -Werror -DMCP_POLL_KQUEUE -ISources/CMCPPlatform/include $cflags \
    Sources/CMCPPlatform/event_poll.c scripts/check-kqueue.c "${sources[@]}" -o "$work/check-kqueue" $libs -lpthread
"$work/check-kqueue"
