// Writing to a descriptor without waiting, whatever its own flags (see CMCPPlatform.h).

#define _GNU_SOURCE
#include "CMCPPlatform.h"

#include <errno.h>
#include <string.h>

#if defined(__linux__)
#include <stdio.h>
#include <sys/uio.h>
#include <sys/utsname.h>

// Whether the running kernel is 6.4 or later. Pipes take `RWF_NOWAIT` since 6.4 (before, the
// call fails with EOPNOTSUPP, which is safe); the one development kernel that accepted it on
// a pipe but still waited for room (6.4-rc1) is excluded along with every older one, so that
// a "write that never waits" can never block the event loop. Computed once; a race only
// computes it twice.
static int kernel_writes_pipes_without_waiting(void) {
    static int known = 0; // 0: not yet known, 1: yes, 2: no
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value == 0) {
        struct utsname name;
        int major = 0, minor = 0;
        value = 2;
        if (uname(&name) == 0 && sscanf(name.release, "%d.%d", &major, &minor) == 2) {
            if (major > 6 || (major == 6 && minor >= 5)
                || (major == 6 && minor == 4 && strstr(name.release, "-rc1") == NULL)) {
                value = 1;
            }
        }
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    return value == 1;
}

ssize_t mcp_write_nowait(int descriptor, const void *bytes, size_t count) {
    if (!kernel_writes_pipes_without_waiting()) {
        errno = EOPNOTSUPP;
        return -1;
    }
    struct iovec piece = { (void *)bytes, count };
    while (1) {
        // Offset -1: at the file's current position, as `write` does.
        ssize_t written = pwritev2(descriptor, &piece, 1, -1, RWF_NOWAIT);
        if (written >= 0) return written;
        if (errno == EINTR) continue;
        // A kernel or C library without pwritev2, or without RWF_NOWAIT for this kind of file.
        if (errno == ENOSYS) errno = EOPNOTSUPP;
        return -1;
    }
}

#else

ssize_t mcp_write_nowait(int descriptor, const void *bytes, size_t count) {
    (void)descriptor;
    (void)bytes;
    (void)count;
    errno = EOPNOTSUPP;
    return -1;
}

#endif
