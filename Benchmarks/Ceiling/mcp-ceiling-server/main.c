#define _GNU_SOURCE
// A do-nothing JSON-RPC server over standard input and output: the ceiling for a stdio
// round trip on this machine. It answers every line that carries an `"id":` with
// `{"jsonrpc":"2.0","id":<the same id>,"result":{}}` and ignores every other line
// (notifications). It parses nothing else, allocates nothing per message, and writes all
// the answers to one read's worth of requests with one write(2): two pipe writes and two
// wake-ups per sequential round trip is all that is left, which is the point.
#include <errno.h>
#include <string.h>
#include <unistd.h>

static char input[1 << 16];
static char output[1 << 18];

static int write_all(const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(STDOUT_FILENO, bytes, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

int main(void) {
    static const char head[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    static const char tail[] = ",\"result\":{}}\n";
    size_t held = 0;
    for (;;) {
        ssize_t got = read(STDIN_FILENO, input + held, sizeof input - held);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        held += (size_t)got;
        size_t out = 0;
        char *line = input;
        char *end = input + held;
        char *newline;
        while ((newline = memchr(line, '\n', (size_t)(end - line))) != NULL) {
            char *id = memmem(line, (size_t)(newline - line), "\"id\":", 5);
            if (id != NULL) {
                id += 5;
                char *stop = id;
                while (stop < newline && *stop != ',' && *stop != '}') stop++;
                size_t length = (size_t)(stop - id);
                if (out + sizeof head + length + sizeof tail > sizeof output) {
                    if (write_all(output, out) != 0) return 1;
                    out = 0;
                }
                memcpy(output + out, head, sizeof head - 1);
                out += sizeof head - 1;
                memcpy(output + out, id, length);
                out += length;
                memcpy(output + out, tail, sizeof tail - 1);
                out += sizeof tail - 1;
            }
            line = newline + 1;
        }
        if (out > 0 && write_all(output, out) != 0) return 1;
        held = (size_t)(end - line);
        memmove(input, line, held);
        if (held == sizeof input) return 2;  // a line longer than the buffer: not a peer this is for
    }
}
