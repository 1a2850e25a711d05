// The size of a terminal (see CMCPPlatform.h).

#include "CMCPPlatform.h"

#include <sys/ioctl.h>

int mcp_terminal_columns(int descriptor) {
    struct winsize size;
    if (ioctl(descriptor, TIOCGWINSZ, &size) != 0) return -1;
    return size.ws_col > 0 ? (int)size.ws_col : -1;
}
