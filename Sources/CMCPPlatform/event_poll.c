// The event loop's readiness calls (see CMCPPlatform.h).

#define _GNU_SOURCE
#include "CMCPPlatform.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#if defined(__linux__) && !defined(MCP_POLL_KQUEUE)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static uint32_t epoll_bits(uint32_t interest) {
    uint32_t bits = 0;
    if (interest & MCP_POLL_READABLE) bits |= EPOLLIN | EPOLLRDHUP;
    if (interest & MCP_POLL_WRITABLE) bits |= EPOLLOUT;
    return bits;
}

int mcp_poller_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int mcp_poller_control(int poller, int operation, int descriptor, uint32_t interest, uint64_t token) {
    struct epoll_event event = {0};
    event.events = epoll_bits(interest);
    event.data.u64 = token;
    int op = operation == 0 ? EPOLL_CTL_ADD : operation == 1 ? EPOLL_CTL_MOD : EPOLL_CTL_DEL;
    return epoll_ctl(poller, op, descriptor, &event);
}

int mcp_poller_wait(int poller, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(poller, ready, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        uint32_t bits = 0;
        if (ready[index].events & EPOLLIN) bits |= MCP_POLL_READABLE;
        if (ready[index].events & EPOLLOUT) bits |= MCP_POLL_WRITABLE;
        if (ready[index].events & (EPOLLHUP | EPOLLERR | EPOLLRDHUP)) bits |= MCP_POLL_HANGUP;
        tokens[index] = ready[index].data.u64;
        events[index] = bits;
    }
    return count;
}

int mcp_waker_create(int poller, uint64_t token) {
    int waker = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (waker < 0) return -1;
    if (mcp_poller_control(poller, 0, waker, MCP_POLL_READABLE, token) != 0) {
        int error = errno;
        close(waker);
        errno = error;
        return -1;
    }
    return waker;
}

void mcp_waker_signal(int waker) {
    uint64_t one = 1;
    while (write(waker, &one, sizeof one) < 0 && errno == EINTR) {}
}

void mcp_waker_drain(int waker) {
    uint64_t value;
    while (read(waker, &value, sizeof value) < 0 && errno == EINTR) {}
}

void mcp_waker_close(int waker) { close(waker); }

int mcp_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

#elif defined(__APPLE__) || defined(MCP_POLL_KQUEUE)
// kqueue (Darwin; elsewhere with MCP_POLL_KQUEUE, which scripts/check-kqueue.sh uses to run
// this code against libkqueue on Linux). The same contract as the epoll code above:
// level-triggered (no EV_CLEAR), one token per descriptor, a descriptor that cannot be polled
// refused with EPERM when it is added.
#include <fcntl.h>
#include <sys/event.h>
#include <sys/stat.h>
#include <time.h>

#ifndef EV_RECEIPT
#error "the kqueue backend needs EV_RECEIPT (macOS 10.6, FreeBSD 8, libkqueue)"
#endif
#ifndef EVFILT_USER
#error "the kqueue backend needs EVFILT_USER for its waker (macOS 10.6, FreeBSD 8.1, libkqueue)"
#endif

/// The waker's EVFILT_USER identifier (a namespace of its own: it is no descriptor).
#define MCP_WAKER_IDENT 1

static void *token_data(uint64_t token) { return (void *)(uintptr_t)token; }

/// Whether kqueue can report readiness for `descriptor` as epoll would: pipes, FIFOs, sockets
/// and terminals. kqueue takes a regular file (always readable), which epoll refuses with
/// EPERM; refusing it here too keeps the callers' fallback to threads the same everywhere.
static int kq_pollable(int descriptor) {
    struct stat info;
    if (fstat(descriptor, &info) != 0) return -1;
    if (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode)) return 0;
    if (S_ISCHR(info.st_mode) && isatty(descriptor)) return 0;
    errno = EPERM;
    return -1;
}

/// Applies `changes` in one call with a receipt each; the first error not `tolerated`, or 0.
/// `failed` (may be NULL) gets a bit per change that failed with any error.
static int kq_apply(int poller, struct kevent *changes, int count, int tolerated, unsigned *failed) {
    struct kevent receipts[2];
    struct timespec zero = {0, 0};
    for (int index = 0; index < count; index++) changes[index].flags |= EV_RECEIPT;
    int received;
    do {
        received = kevent(poller, changes, count, receipts, count, &zero);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return errno;
    int error = 0;
    if (failed) *failed = 0;
    for (int index = 0; index < received; index++) {
        if (!(receipts[index].flags & EV_ERROR) || receipts[index].data == 0) continue;
        for (int change = 0; change < count; change++) {
            if (failed && changes[change].filter == receipts[index].filter) *failed |= 1u << change;
        }
        if (receipts[index].data != tolerated && error == 0) error = (int)receipts[index].data;
    }
    return error;
}

int mcp_poller_create(void) {
    int poller = kqueue();
    if (poller < 0) return -1;
    // Darwin's kqueues are not inherited by a child anyway; elsewhere close-on-exec matters.
    (void)fcntl(poller, F_SETFD, FD_CLOEXEC);
    return poller;
}

int mcp_poller_control(int poller, int operation, int descriptor, uint32_t interest, uint64_t token) {
#if UINTPTR_MAX < UINT64_MAX
    if (token > UINTPTR_MAX) {
        errno = EOVERFLOW;
        return -1;
    }
#endif
    struct kevent changes[2];
    int error;
    if (operation == 0) {
        if (kq_pollable(descriptor) != 0) return -1;
        // (No side effect inside EV_SET: some versions evaluate its first argument more than once.)
        int count = 0;
        if (interest & MCP_POLL_READABLE) {
            EV_SET(&changes[count], descriptor, EVFILT_READ, EV_ADD | EV_ENABLE, 0, 0, token_data(token));
            count++;
        }
        if (interest & MCP_POLL_WRITABLE) {
            EV_SET(&changes[count], descriptor, EVFILT_WRITE, EV_ADD | EV_ENABLE, 0, 0, token_data(token));
            count++;
        }
        if (count == 0) {
            // Nothing to report yet, but the kernel must still accept (or refuse) the descriptor
            // now, as epoll does: one filter it can take, added disabled.
            int flags = fcntl(descriptor, F_GETFL);
            short filter = flags >= 0 && (flags & O_ACCMODE) == O_WRONLY ? EVFILT_WRITE : EVFILT_READ;
            EV_SET(&changes[count], descriptor, filter, EV_ADD | EV_DISABLE, 0, 0, token_data(token));
            count++;
        }
        unsigned failed = 0;
        error = kq_apply(poller, changes, count, 0, &failed);
        if (error != 0) {
            // Take back what was added, and say "cannot be polled" as epoll does for a kind of
            // descriptor this kernel's kqueue does not support.
            for (int index = 0; index < count; index++) {
                if (failed & (1u << index)) continue;
                struct kevent undo;
                EV_SET(&undo, descriptor, changes[index].filter, EV_DELETE, 0, 0, NULL);
                (void)kq_apply(poller, &undo, 1, ENOENT, NULL);
            }
            if (error == EINVAL || error == ENODEV || error == ENOTSUP || error == EOPNOTSUPP) error = EPERM;
        }
    } else if (operation == 1) {
        // Wanted filters are added (or enabled again, with the token); the others disabled,
        // whether or not they were ever added.
        EV_SET(&changes[0], descriptor, EVFILT_READ, (interest & MCP_POLL_READABLE) ? EV_ADD | EV_ENABLE : EV_DISABLE, 0, 0,
               token_data(token));
        EV_SET(&changes[1], descriptor, EVFILT_WRITE, (interest & MCP_POLL_WRITABLE) ? EV_ADD | EV_ENABLE : EV_DISABLE, 0, 0,
               token_data(token));
        error = kq_apply(poller, changes, 2, ENOENT, NULL);
    } else {
        EV_SET(&changes[0], descriptor, EVFILT_READ, EV_DELETE, 0, 0, NULL);
        EV_SET(&changes[1], descriptor, EVFILT_WRITE, EV_DELETE, 0, 0, NULL);
        unsigned failed = 0;
        error = kq_apply(poller, changes, 2, ENOENT, &failed);
        // Neither filter was there: the descriptor was not registered (epoll's ENOENT).
        if (error == 0 && failed == 3u) error = ENOENT;
    }
    if (error != 0) {
        errno = error;
        return -1;
    }
    return 0;
}

int mcp_poller_wait(int poller, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    struct kevent ready[64];
    if (capacity > 64) capacity = 64;
    struct timespec timeout = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
    int count = kevent(poller, NULL, 0, ready, capacity, timeout_ms < 0 ? NULL : &timeout);
    if (count < 0) return -1;
    // A descriptor's two filters come as two events: merged into one result per token.
    int results = 0;
    for (int index = 0; index < count; index++) {
        uint32_t bits = 0;
        if (ready[index].flags & EV_ERROR) {
            bits |= MCP_POLL_HANGUP;
        } else if (ready[index].filter == EVFILT_READ || ready[index].filter == EVFILT_USER) {
            bits |= MCP_POLL_READABLE;
        } else if (ready[index].filter == EVFILT_WRITE) {
            bits |= MCP_POLL_WRITABLE;
        }
        if (ready[index].flags & EV_EOF) bits |= MCP_POLL_HANGUP;
        uint64_t token = (uint64_t)(uintptr_t)ready[index].udata;
        int slot = 0;
        while (slot < results && tokens[slot] != token) slot++;
        if (slot == results) {
            tokens[results] = token;
            events[results++] = bits;
        } else {
            events[slot] |= bits;
        }
    }
    return results;
}

int mcp_waker_create(int poller, uint64_t token) {
#if UINTPTR_MAX < UINT64_MAX
    if (token > UINTPTR_MAX) {
        errno = EOVERFLOW;
        return -1;
    }
#endif
    // EV_CLEAR: a trigger is reported once, so draining is nothing to do.
    struct kevent change;
    EV_SET(&change, MCP_WAKER_IDENT, EVFILT_USER, EV_ADD | EV_CLEAR, 0, 0, token_data(token));
    int error = kq_apply(poller, &change, 1, 0, NULL);
    if (error != 0) {
        errno = error;
        return -1;
    }
    return poller;
}

void mcp_waker_signal(int waker) {
    struct kevent change;
    EV_SET(&change, MCP_WAKER_IDENT, EVFILT_USER, 0, NOTE_TRIGGER, 0, NULL);
    (void)kq_apply(waker, &change, 1, 0, NULL);
}

void mcp_waker_drain(int waker) { (void)waker; }

void mcp_waker_close(int waker) { (void)waker; }

int mcp_pidfd_open(pid_t pid) {
    // No process descriptors here (EVFILT_PROC watches a pid, not a descriptor): the caller
    // waits on a thread instead.
    (void)pid;
    errno = ENOSYS;
    return -1;
}

#else

int mcp_poller_create(void) {
    errno = ENOSYS;
    return -1;
}

int mcp_poller_control(int poller, int operation, int descriptor, uint32_t interest, uint64_t token) {
    (void)poller; (void)operation; (void)descriptor; (void)interest; (void)token;
    errno = ENOSYS;
    return -1;
}

int mcp_poller_wait(int poller, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    (void)poller; (void)tokens; (void)events; (void)capacity; (void)timeout_ms;
    errno = ENOSYS;
    return -1;
}

int mcp_waker_create(int poller, uint64_t token) {
    (void)poller; (void)token;
    errno = ENOSYS;
    return -1;
}

void mcp_waker_signal(int waker) { (void)waker; }

void mcp_waker_drain(int waker) { (void)waker; }

void mcp_waker_close(int waker) { (void)waker; }

int mcp_pidfd_open(pid_t pid) {
    (void)pid;
    errno = ENOSYS;
    return -1;
}

#endif
