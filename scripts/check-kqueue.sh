#!/usr/bin/env bash
# Runs CMCPPlatform's kqueue backend (the event loop's readiness calls on Darwin) on Linux,
# against libkqueue: event_poll.c built with -DMCP_POLL_KQUEUE and scripts/check-kqueue.c.
#
#   bash scripts/check-kqueue.sh
#
# Not part of the package build: the package never depends on libkqueue. Needs libkqueue's
# headers and library (Debian's libkqueue-dev where the archive has it; bookworm's does not);
# without them it says so and exits 0 (skipped). libkqueue mimics Darwin's kqueue but is not
# it: a pass here is a check of the code's logic, not of Darwin's kernel.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cflags=""
libs=""
if command -v pkg-config > /dev/null && pkg-config --exists libkqueue 2> /dev/null; then
    cflags="$(pkg-config --cflags libkqueue)"
    libs="$(pkg-config --libs libkqueue)"
elif [ -e /usr/include/kqueue/sys/event.h ]; then
    cflags="-I/usr/include/kqueue"
    libs="-lkqueue"
else
    echo "check-kqueue: skipped: libkqueue is not installed (no pkg-config libkqueue, no /usr/include/kqueue/sys/event.h)."
    echo "check-kqueue: install it (apt-get install libkqueue-dev, where the archive has it) to run the kqueue backend on Linux."
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc="${CC:-cc}"
# shellcheck disable=SC2086  # pkg-config's flags are words
"$cc" -std=c11 -Wall -Wextra -Werror -DMCP_POLL_KQUEUE -ISources/CMCPPlatform/include $cflags \
    Sources/CMCPPlatform/event_poll.c scripts/check-kqueue.c -o "$work/check-kqueue" $libs -lpthread
"$work/check-kqueue"
