// Runs CMCPPlatform's kqueue backend (event_poll.c built with MCP_POLL_KQUEUE) against
// libkqueue on Linux: the same contract as epoll, as far as libkqueue mimics Darwin's kqueue.
// Built and run by scripts/check-kqueue.sh; not part of the package.

#define _GNU_SOURCE
#include "CMCPPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int passed = 0;
static int failed = 0;

static void check(int condition, const char *what) {
    if (condition) {
        passed++;
        printf("ok    %s\n", what);
    } else {
        failed++;
        printf("FAIL  %s (errno %d: %s)\n", what, errno, strerror(errno));
    }
}

/// One wait; the bits reported for `token` (0 if it is not among the results), and how many
/// results named it (the merge: never more than one).
static uint32_t wait_for(int poller, uint64_t token, int timeout_ms, int *occurrences) {
    uint64_t tokens[64];
    uint32_t events[64];
    int count = mcp_poller_wait(poller, tokens, events, 64, timeout_ms);
    uint32_t bits = 0;
    *occurrences = 0;
    for (int index = 0; index < count; index++) {
        if (tokens[index] == token) {
            bits |= events[index];
            (*occurrences)++;
        }
    }
    return bits;
}

static uint32_t poll_now(int poller, uint64_t token) {
    int occurrences;
    return wait_for(poller, token, 0, &occurrences);
}

static void *signal_waker(void *argument) {
    mcp_waker_signal(*(int *)argument);
    return NULL;
}

int main(void) {
    alarm(20);  // a hang guard: no wait below should block for long
    int poller = mcp_poller_create();
    check(poller >= 0, "kqueue poller created");
    if (poller < 0) return 1;

    // The waker (EVFILT_USER), reported as token 0.
    int waker = mcp_waker_create(poller, 0);
    check(waker >= 0, "waker created");
    check(poll_now(poller, 0) == 0, "waker: not readable before a signal");
    mcp_waker_signal(waker);
    check(poll_now(poller, 0) == MCP_POLL_READABLE, "waker: readable after a signal");
    mcp_waker_drain(waker);
    check(poll_now(poller, 0) == 0, "waker: reported once per signal (EV_CLEAR)");
    pthread_t thread;
    pthread_create(&thread, NULL, signal_waker, &waker);
    int occurrences;
    check(wait_for(poller, 0, -1, &occurrences) == MCP_POLL_READABLE, "waker: a signal from another thread ends a wait without timeout");
    pthread_join(thread, NULL);

    // A pipe's read end: readable, level-triggered, then hang-up.
    int pipe1[2];
    check(pipe(pipe1) == 0, "pipe made");
    check(mcp_poller_control(poller, 0, pipe1[0], MCP_POLL_READABLE, 10) == 0, "pipe read end added");
    check(poll_now(poller, 10) == 0, "pipe: nothing before a write");
    check(write(pipe1[1], "x", 1) == 1, "one byte written");
    check(poll_now(poller, 10) == MCP_POLL_READABLE, "pipe: readable after a write");
    check(poll_now(poller, 10) == MCP_POLL_READABLE, "pipe: readable again while unread (level-triggered)");
    char byte;
    check(read(pipe1[0], &byte, 1) == 1, "one byte read");
    check(poll_now(poller, 10) == 0, "pipe: not readable once read");
    close(pipe1[1]);
    uint32_t bits = poll_now(poller, 10);
    check((bits & MCP_POLL_HANGUP) && (bits & MCP_POLL_READABLE), "pipe: writer closed -> readable and hang-up (EV_EOF)");
    check(mcp_poller_control(poller, 2, pipe1[0], 0, 10) == 0, "pipe read end removed");
    check(poll_now(poller, 10) == 0, "pipe: nothing after removal");
    errno = 0;
    check(mcp_poller_control(poller, 2, pipe1[0], 0, 10) == -1 && errno == ENOENT, "removing it again: ENOENT");
    close(pipe1[0]);

    // A pipe's write end: writable; hang-up when the reader goes.
    int pipe2[2];
    check(pipe(pipe2) == 0, "pipe made");
    check(mcp_poller_control(poller, 0, pipe2[1], 0, 20) == 0, "pipe write end added with no interest");
    check(poll_now(poller, 20) == 0, "no interest: nothing reported");
    check(mcp_poller_control(poller, 1, pipe2[1], MCP_POLL_WRITABLE, 20) == 0, "interest changed to writable");
    check(poll_now(poller, 20) == MCP_POLL_WRITABLE, "pipe write end: writable");
    check(mcp_poller_control(poller, 1, pipe2[1], 0, 20) == 0, "interest changed to none");
    check(poll_now(poller, 20) == 0, "interest none: nothing reported");
    check(mcp_poller_control(poller, 1, pipe2[1], MCP_POLL_WRITABLE, 20) == 0, "interest writable again");
    close(pipe2[0]);
    bits = poll_now(poller, 20);
    check(bits & MCP_POLL_HANGUP, "pipe: reader closed -> hang-up on the write end");
    check(mcp_poller_control(poller, 2, pipe2[1], 0, 20) == 0, "pipe write end removed");
    close(pipe2[1]);

    // A socket in both directions: two filters, one merged result.
    int pair[2];
    check(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0, "socket pair made");
    check(mcp_poller_control(poller, 0, pair[0], MCP_POLL_READABLE, 30) == 0, "socket added, readable");
    check(poll_now(poller, 30) == 0, "socket: nothing before a write");
    check(mcp_poller_control(poller, 1, pair[0], MCP_POLL_READABLE | MCP_POLL_WRITABLE, 30) == 0, "socket: writable added");
    check(poll_now(poller, 30) == MCP_POLL_WRITABLE, "socket: writable only");
    check(write(pair[1], "x", 1) == 1, "one byte written");
    bits = wait_for(poller, 30, 0, &occurrences);
    check(bits == (MCP_POLL_READABLE | MCP_POLL_WRITABLE), "socket: readable and writable");
    check(occurrences == 1, "socket: both filters merged into one result");
    check(mcp_poller_control(poller, 1, pair[0], MCP_POLL_READABLE, 30) == 0, "socket: writable taken out");
    check(poll_now(poller, 30) == MCP_POLL_READABLE, "socket: readable only");
    check(read(pair[0], &byte, 1) == 1, "one byte read");
    check(mcp_poller_control(poller, 1, pair[0], MCP_POLL_READABLE, 0x100000001ull) == 0, "socket: a token above 32 bits");
    check(write(pair[1], "y", 1) == 1, "one byte written");
    check(poll_now(poller, 0x100000001ull) == MCP_POLL_READABLE, "socket: the 64-bit token comes back whole");
    check(read(pair[0], &byte, 1) == 1, "one byte read");
    close(pair[1]);
    check(poll_now(poller, 0x100000001ull) & MCP_POLL_HANGUP, "socket: peer closed -> hang-up");
    check(mcp_poller_control(poller, 2, pair[0], 0, 0) == 0, "socket removed");
    close(pair[0]);

    // Descriptors that cannot be polled: refused as epoll refuses them.
    char path[] = "/tmp/check-kqueue-XXXXXX";
    int file = mkstemp(path);
    unlink(path);
    errno = 0;
    check(mcp_poller_control(poller, 0, file, MCP_POLL_READABLE, 40) == -1 && errno == EPERM, "regular file refused with EPERM");
    close(file);
    int null = open("/dev/null", O_RDWR);
    errno = 0;
    check(mcp_poller_control(poller, 0, null, MCP_POLL_READABLE, 41) == -1 && errno == EPERM, "/dev/null refused with EPERM");
    close(null);
    int directory = open("/tmp", O_RDONLY);
    errno = 0;
    check(mcp_poller_control(poller, 0, directory, 0, 42) == -1 && errno == EPERM, "a directory refused with EPERM");
    close(directory);
    errno = 0;
    check(mcp_poller_control(poller, 0, 1000, MCP_POLL_READABLE, 43) == -1 && errno == EBADF, "a closed descriptor: EBADF");

    // Process descriptors do not exist with kqueue.
    errno = 0;
    check(mcp_pidfd_open(getpid()) == -1 && errno == ENOSYS, "mcp_pidfd_open: ENOSYS");

    mcp_waker_close(waker);
    close(poller);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
