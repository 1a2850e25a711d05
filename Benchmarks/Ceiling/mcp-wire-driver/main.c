// A JSON-RPC load driver over pipes, cheap enough not to be the bottleneck: it starts the
// server under test as a child process, performs the MCP handshake (2025-11-25 `initialize`
// and `notifications/initialized`; `--no-handshake` skips it), then sends requests built
// from a fixed template with fresh ids and reads the answers, either one at a time
// (`-w 1`, sequential) or keeping a window of W requests unanswered (pipelined). Each
// answer's id must be one in flight and its line must hold `"result"` (and, for a tool call,
// no `"isError":true`); anything else stops the run with an error.
//
// It prints one line of `key=value` figures: calls per second over the measured calls, the
// median and 99th percentile of the time from writing a request to reading its answer, and the
// CPU time (user and system, all threads) the server and the driver spent per measured request
// (`server_cpu_us`, `driver_cpu_us`: from /proc/PID/stat and getrusage, in clock ticks, so
// counts of 100,000 or more requests keep the rounding under a few percent). Unlike the rate,
// the CPU per request does not depend on how the two processes were scheduled on the cores.
// `server_switches` is the server's context switches (voluntary and not, every thread, from
// `wait4` once it has exited) per request sent, warm-up included: a count, not a time, so it
// shows what a hand-off between threads costs even when the host's speed wanders.
// With `-r` it also prints the server's VmRSS after the handshake (and a `tools/list`).
//
//   mcp-wire-driver [-n COUNT] [-W WARMUP] [-w WINDOW] [-m ping|call] [-t TOOL] [-a ARGUMENTS]
//              [-r] [--no-handshake] -- SERVER [ARGUMENTS...]
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int to_server = -1;
static int from_server = -1;
static char inbox[1 << 20];
static size_t inbox_held = 0;
static size_t inbox_start = 0;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "mcp-wire-driver: %s\n", what);
    exit(1);
}

static void write_all(const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(to_server, bytes, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            die("writing to the server failed");
        }
        bytes += written;
        count -= (size_t)written;
    }
}

// The next complete line from the server (without its newline, NUL-terminated in place).
static char *read_line(size_t *length) {
    for (;;) {
        char *start = inbox + inbox_start;
        char *newline = memchr(start, '\n', inbox_held - inbox_start);
        if (newline != NULL) {
            *newline = 0;
            *length = (size_t)(newline - start);
            inbox_start = (size_t)(newline - inbox) + 1;
            return start;
        }
        if (inbox_start > 0) {
            memmove(inbox, inbox + inbox_start, inbox_held - inbox_start);
            inbox_held -= inbox_start;
            inbox_start = 0;
        }
        if (inbox_held == sizeof inbox) die("an answer is longer than 1 MiB");
        ssize_t got = read(from_server, inbox + inbox_held, sizeof inbox - inbox_held);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) die("the server closed its output");
        inbox_held += (size_t)got;
    }
}

static long answer_id(const char *line) {
    const char *id = strstr(line, "\"id\":");
    if (id == NULL) return -1;
    return strtol(id + 5, NULL, 10);
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t request(char *buffer, size_t size, long id, const char *method, const char *tool, const char *arguments) {
    int written;
    if (strcmp(method, "call") == 0) {
        written = snprintf(buffer, size,
            "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}\n",
            id, tool, arguments);
    } else {
        written = snprintf(buffer, size, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"%s\"}\n", id, method);
    }
    if (written < 0 || (size_t)written >= size) die("a request does not fit its buffer");
    return (size_t)written;
}

static void wait_for(long id) {
    for (;;) {
        size_t length;
        char *line = read_line(&length);
        if (answer_id(line) == id) {
            if (strstr(line, "\"result\"") == NULL) {
                fprintf(stderr, "mcp-wire-driver: handshake answer: %s\n", line);
                die("the handshake failed");
            }
            return;
        }
    }
}

// Opens /proc/PID/NAME for reading; NULL if it cannot.
static FILE *open_proc(pid_t pid, const char *name) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    return fopen(path, "r");
}

static long rss_kib(pid_t pid) {
    FILE *file = open_proc(pid, "status");
    if (file == NULL) return -1;
    char line[256];
    long value = -1;
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) value = strtol(line + 6, NULL, 10);
    }
    fclose(file);
    return value;
}

// The CPU time (user and system, every thread) process `pid` has used, in seconds; -1 if unknown.
static double process_cpu_seconds(pid_t pid) {
    FILE *file = open_proc(pid, "stat");
    if (file == NULL) return -1;
    char line[1024];
    size_t length = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[length] = 0;
    // The command name (field 2) may hold spaces: fields 14 and 15 are counted after its ')'.
    char *cursor = strrchr(line, ')');
    if (cursor == NULL) return -1;
    unsigned long long user = 0, system = 0;
    if (sscanf(cursor + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &user, &system) != 2) return -1;
    long ticks = sysconf(_SC_CLK_TCK);
    return ticks > 0 ? (double)(user + system) / (double)ticks : -1;
}

// The CPU time this process has used, in seconds.
static double own_cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
    long count = 100000, warmup = 10000, window = 1;
    const char *method = "call", *tool = "echo", *arguments = "{\"text\":\"hello\"}";
    int handshake = 1, report_rss = 0;
    int index = 1;
    for (; index < argc; index++) {
        const char *flag = argv[index];
        if (strcmp(flag, "--") == 0) {
            index++;
            break;
        }
        if (strcmp(flag, "--no-handshake") == 0) {
            handshake = 0;
        } else if (strcmp(flag, "-r") == 0) {
            report_rss = 1;
        } else if (index + 1 < argc && strcmp(flag, "-n") == 0) {
            count = atol(argv[++index]);
        } else if (index + 1 < argc && strcmp(flag, "-W") == 0) {
            warmup = atol(argv[++index]);
        } else if (index + 1 < argc && strcmp(flag, "-w") == 0) {
            window = atol(argv[++index]);
        } else if (index + 1 < argc && strcmp(flag, "-m") == 0) {
            method = argv[++index];
        } else if (index + 1 < argc && strcmp(flag, "-t") == 0) {
            tool = argv[++index];
        } else if (index + 1 < argc && strcmp(flag, "-a") == 0) {
            arguments = argv[++index];
        } else {
            die("usage: mcp-wire-driver [-n COUNT] [-W WARMUP] [-w WINDOW] [-m ping|call|METHOD] [-t TOOL] [-a ARGUMENTS] "
                "[-r] [--no-handshake] -- SERVER [ARGUMENTS...]");
        }
    }
    if (index >= argc) die("no server to start (give it after --)");
    if (count < 1 || window < 1 || warmup < 0) die("counts must be positive");

    signal(SIGPIPE, SIG_IGN);
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) die("cannot create pipes");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, down[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, up[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, down[1]);
    posix_spawn_file_actions_addclose(&actions, up[0]);
    pid_t pid;
    if (posix_spawnp(&pid, argv[index], &actions, NULL, argv + index, environ) != 0) die("cannot start the server");
    close(down[0]);
    close(up[1]);
    to_server = down[1];
    from_server = up[0];

    char buffer[4096];
    if (handshake) {
        const char *initialize =
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
            "\"capabilities\":{},\"clientInfo\":{\"name\":\"mcp-wire-driver\",\"version\":\"1\"}}}\n"
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
        write_all(initialize, strlen(initialize));
        wait_for(0);
    }
    if (report_rss) {
        size_t length = request(buffer, sizeof buffer, -1, "tools/list", tool, arguments);
        write_all(buffer, length);
        wait_for(-1);
        printf("idle_rss_kib=%ld ", rss_kib(pid));
    }

    long total = warmup + count;
    // Requests in flight, by id: the time each was written and its id (to tell a slot's
    // request from an older one with the same slot).
    enum { ring = 1 << 20 };
    uint64_t *sent_at = calloc(ring, sizeof *sent_at);
    long *slot_id = calloc(ring, sizeof *slot_id);
    uint64_t *latency = calloc((size_t)count, sizeof *latency);
    if (sent_at == NULL || slot_id == NULL || latency == NULL) die("out of memory");
    char *batch = malloc((size_t)window * 512);
    if (batch == NULL) die("out of memory");
    long next = 1, answered = 0, measured = 0;
    uint64_t start = now_ns();
    double server_cpu_start = process_cpu_seconds(pid), driver_cpu_start = own_cpu_seconds();
    while (answered < total) {
        // Fill the window: every request that fits, in one write.
        size_t batch_length = 0;
        uint64_t stamp = now_ns();
        while (next <= total && next - answered <= window) {
            batch_length += request(batch + batch_length, 512, next, method, tool, arguments);
            if (slot_id[next % ring] != 0) die("more than 2^20 requests in flight");
            sent_at[next % ring] = stamp;
            slot_id[next % ring] = next;
            next++;
        }
        if (batch_length > 0) write_all(batch, batch_length);
        size_t length;
        char *line = read_line(&length);
        long id = answer_id(line);
        if (id <= 0 || slot_id[id % ring] != id) {
            if (id < 0 && strstr(line, "\"method\"") != NULL) continue;  // a notification
            fprintf(stderr, "mcp-wire-driver: unexpected answer: %.300s\n", line);
            die("an answer names no request in flight");
        }
        if (strstr(line, "\"result\"") == NULL || strstr(line, "\"isError\":true") != NULL) {
            fprintf(stderr, "mcp-wire-driver: failed answer: %.300s\n", line);
            die("a request failed");
        }
        uint64_t received = now_ns();
        answered++;
        if (answered == warmup) {
            start = received;
            server_cpu_start = process_cpu_seconds(pid);
            driver_cpu_start = own_cpu_seconds();
        }
        slot_id[id % ring] = 0;
        if (answered > warmup) latency[measured++] = received - sent_at[id % ring];
    }
    uint64_t elapsed = now_ns() - start;
    double server_cpu = process_cpu_seconds(pid) - server_cpu_start, driver_cpu = own_cpu_seconds() - driver_cpu_start;
    qsort(latency, (size_t)measured, sizeof *latency, compare);
    // End of input ends the server; its resource usage then covers every thread it ever had.
    close(to_server);
    int status = 0;
    struct rusage server_usage;
    memset(&server_usage, 0, sizeof server_usage);
    double switches = wait4(pid, &status, 0, &server_usage) == pid
        ? (double)(server_usage.ru_nvcsw + server_usage.ru_nivcsw) / (double)total : -1.0;
    printf("method=%s window=%ld calls=%ld seconds=%.3f rate=%.0f p50_us=%.2f p99_us=%.2f server_cpu_us=%.3f driver_cpu_us=%.3f"
        " server_switches=%.4f\n",
        method, window, measured, (double)elapsed / 1e9, (double)measured / ((double)elapsed / 1e9),
        (double)latency[measured / 2] / 1000.0, (double)latency[(measured * 99) / 100] / 1000.0,
        server_cpu_start < 0 ? -1.0 : server_cpu * 1e6 / (double)measured, driver_cpu * 1e6 / (double)measured, switches);
    return 0;
}
