// Per-thread helpers (see CMCPPlatform.h): naming the calling thread, which event loop it runs,
// and the mutex the package's locks use.

#define _GNU_SOURCE
#include "CMCPPlatform.h"

#include <string.h>

#if defined(__linux__)
#include <sys/prctl.h>

void mcp_name_current_thread(const char *name) {
    // The kernel keeps 15 bytes and a NUL; longer names are cut.
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    (void)prctl(PR_SET_NAME, (unsigned long)truncated, 0, 0, 0);
}

#else

void mcp_name_current_thread(const char *name) { (void)name; }

#endif

int mcp_mutex_init(pthread_mutex_t *mutex) {
#if defined(__GLIBC__)
    pthread_mutexattr_t attributes;
    int status = pthread_mutexattr_init(&attributes);
    if (status != 0) return status;
    status = pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ADAPTIVE_NP);
    if (status == 0) status = pthread_mutex_init(mutex, &attributes);
    (void)pthread_mutexattr_destroy(&attributes);
    return status;
#else
    return pthread_mutex_init(mutex, NULL);
#endif
}

static __thread const void *mcp_thread_marker = 0;

void mcp_set_thread_marker(const void *marker) { mcp_thread_marker = marker; }

const void *mcp_thread_marker_get(void) { return mcp_thread_marker; }

static __thread const void *mcp_batch_marker = 0;

void mcp_set_batch_marker(const void *marker) { mcp_batch_marker = marker; }

const void *mcp_batch_marker_get(void) { return mcp_batch_marker; }
