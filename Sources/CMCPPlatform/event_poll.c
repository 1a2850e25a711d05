// The event loop's readiness calls (see CMCPPlatform.h).

#define _GNU_SOURCE
#include "CMCPPlatform.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#if defined(__linux__)
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

int mcp_waker_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

void mcp_waker_signal(int waker) {
    uint64_t one = 1;
    while (write(waker, &one, sizeof one) < 0 && errno == EINTR) {}
}

void mcp_waker_drain(int waker) {
    uint64_t value;
    while (read(waker, &value, sizeof value) < 0 && errno == EINTR) {}
}

int mcp_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

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

int mcp_waker_create(void) {
    errno = ENOSYS;
    return -1;
}

void mcp_waker_signal(int waker) { (void)waker; }

void mcp_waker_drain(int waker) { (void)waker; }

int mcp_pidfd_open(pid_t pid) {
    (void)pid;
    errno = ENOSYS;
    return -1;
}

#endif
