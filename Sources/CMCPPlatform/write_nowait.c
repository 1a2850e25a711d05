// Writing to a descriptor without waiting, whatever its own flags (see CMCPPlatform.h).

#define _GNU_SOURCE
#include "CMCPPlatform.h"

#include <errno.h>

#if defined(__linux__)
#include <sys/syscall.h>
#endif

#if defined(__linux__) && defined(SYS_pwritev2)
#include <stdio.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

// Not every C library names the flag (musl before 1.2.5); the kernel's value since 4.14.
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

// Whether the running kernel is 6.5 or later. Pipes take `RWF_NOWAIT` since 6.4 (and waited
// for room despite it in 6.4-rc1, whose name distributions spell in several ways), sockets
// since 6.5; before, the call fails with EOPNOTSUPP, which would be safe, but a kernel that
// accepted it and still waited would block the event loop. Computed once; a race only
// computes it twice.
static int kernel_writes_without_waiting(void) {
    static int known = 0; // 0: not yet known, 1: yes, 2: no
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value == 0) {
        struct utsname name;
        int major = 0, minor = 0;
        value = 2;
        if (uname(&name) == 0 && sscanf(name.release, "%d.%d", &major, &minor) == 2
            && (major > 6 || (major == 6 && minor >= 5))) {
            value = 1;
        }
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    return value == 1;
}

ssize_t mcp_write_nowait(int descriptor, const void *bytes, size_t count) {
    if (!kernel_writes_without_waiting()) {
        errno = EOPNOTSUPP;
        return -1;
    }
    struct iovec piece = { (void *)bytes, count };
    while (1) {
        // pwritev2 through syscall(2), which every C library has. The offset is -1 in both
        // halves (64-bit kernels read only the low one): the current position, as `write`.
        long written = syscall(SYS_pwritev2, descriptor, &piece, 1, -1L, -1L, RWF_NOWAIT);
        if (written >= 0) return (ssize_t)written;
        if (errno == EINTR) continue;
        // The call itself refused (no such system call, a seccomp filter, a flag this file
        // does not take): the caller's plain write will report the descriptor's own error.
        if (errno == ENOSYS || errno == EPERM || errno == EINVAL) errno = EOPNOTSUPP;
        return -1;
    }
}

#else

// Not Linux, or headers that do not know pwritev2: always "write after polling".
ssize_t mcp_write_nowait(int descriptor, const void *bytes, size_t count) {
    (void)descriptor;
    (void)bytes;
    (void)count;
    errno = EOPNOTSUPP;
    return -1;
}

#endif
