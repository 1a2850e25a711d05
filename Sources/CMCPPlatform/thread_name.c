// Names the calling thread, for debuggers, `top -H` and `perf` (see CMCPPlatform.h).

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
