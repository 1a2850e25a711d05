// The process box's spawn, and the event loop's readiness calls: the package's C.
//
// Between `clone` (or `fork`) and `execve` a child of a multithreaded process may only make
// async-signal-safe calls: no allocation, no locks, nothing a sanitizer intercepts. Swift
// cannot promise that of its own code (a global's lazy initialiser, a metadata lookup or a
// retain can take a lock another thread held at the moment of the clone), so the child's side
// lives here, as plain C over raw system calls. Everything it needs is prepared by the caller
// (MCPPlatform's `BoxSpawn`) in a `mcp_box_spec` before the call.

#ifndef CMCPPLATFORM_H
#define CMCPPLATFORM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where the child's set-up stopped, written to the report descriptor with the error.
typedef enum {
    MCP_BOX_STAGE_USER_MAPS = 1,
    MCP_BOX_STAGE_MOUNT_PRIVATE = 2,
    MCP_BOX_STAGE_MOUNT_READ_ONLY = 3,
    MCP_BOX_STAGE_MOUNT_WRITABLE = 4,
    MCP_BOX_STAGE_MOUNT_DATA = 5,
    MCP_BOX_STAGE_DATA_SUBDIRECTORY = 6,
    MCP_BOX_STAGE_MOUNT_PROC = 7,
    MCP_BOX_STAGE_CGROUP = 8,
    MCP_BOX_STAGE_DESCRIPTORS = 9,
    MCP_BOX_STAGE_SESSION = 10,
    MCP_BOX_STAGE_DIRECTORY = 11,
    MCP_BOX_STAGE_KEYRING = 12,
    MCP_BOX_STAGE_LIMIT = 13,
    MCP_BOX_STAGE_CAPABILITIES = 14,
    MCP_BOX_STAGE_NO_NEW_PRIVILEGES = 15,
    MCP_BOX_STAGE_LANDLOCK_RULESET = 16,
    MCP_BOX_STAGE_LANDLOCK_RULE = 17,
    MCP_BOX_STAGE_LANDLOCK_RESTRICT = 18,
    MCP_BOX_STAGE_SECCOMP = 19,
    MCP_BOX_STAGE_EXEC = 20,
    MCP_BOX_STAGE_SIGNALS = 21,
} mcp_box_stage;

/// One record on the report descriptor: the stage, the `errno`, and the index of the path,
/// limit or rule it concerns (or -1). A note (`fatal` 0) is something the box went without.
typedef struct {
    int32_t stage;
    int32_t error;
    int32_t index;
    int32_t fatal;
} mcp_box_report;

/// Everything the child needs, prepared before the spawn. Pointers stay valid for the call.
typedef struct {
    // What to run: `argv` and `envp` end with NULL.
    const char *path;
    char *const *argv;
    char *const *envp;
    /// The working directory, or NULL to keep the caller's.
    const char *directory;
    /// The child's standard input, output and error (-1 for error: this process's own 2).
    /// Every descriptor given here must be 3 or higher.
    int standard_input;
    int standard_output;
    int standard_error;
    /// The write end of a close-on-exec pipe: the child writes `mcp_box_report`s to it, so
    /// end of file with nothing written means the server was executed.
    int report;

    /// Linux `CLONE_NEW*` flags for the child: with `CLONE_NEWPID` the server is the first
    /// process of its own PID namespace, and every process it starts ends with it. 0: no new
    /// namespaces; the child starts a session (a process group) of its own instead.
    int namespaces;
    /// With `CLONE_NEWUSER`: the lines for `/proc/self/uid_map` and `gid_map`.
    const char *uid_map;
    const char *gid_map;

    // In the new mount namespace.
    /// Makes every mount read-only (recursively), then the writable paths writable again.
    int read_only_mounts;
    const char *const *writable_paths;
    /// Per writable path: 1 to leave it read-only (it was read-only before the box).
    const int *writable_stays_read_only;
    size_t writable_count;
    /// A tmpfs mounted on this directory, with these options (`size=…,mode=0700`); NULL: none.
    const char *data_directory;
    const char *data_mount_options;
    /// Directories made in the tmpfs once it is mounted (absolute paths).
    const char *const *data_subdirectories;
    size_t data_subdirectory_count;
    /// Mounts a fresh `/proc` for the new PID namespace (a note when the kernel refuses).
    int mount_proc;

    /// `cgroup.procs` files (open for writing) the child joins before anything else.
    const int *cgroup_procs;
    size_t cgroup_count;

    /// Resource limits: `prlimit64(0, resource, {soft, hard})` each (`setrlimit` on Darwin).
    const int *limit_resources;
    const uint64_t *limit_soft;
    const uint64_t *limit_hard;
    size_t limit_count;

    /// Empties the capability sets, bounding set and ambient set, locks the securebits
    /// against root's privileges at `execve`, and sets `PR_SET_NO_NEW_PRIVS`.
    int drop_privileges;
    /// Joins a new, empty session keyring.
    int new_session_keyring;

    /// Landlock: 0 for none; else the size of `struct landlock_ruleset_attr` to pass (8, 16 or 24).
    size_t landlock_attribute_size;
    uint64_t landlock_handled_fs;
    uint64_t landlock_handled_net;
    uint64_t landlock_scoped;
    /// Path-beneath rules: each path (a directory or a file) with its rights; a file's rights
    /// are narrowed to those a file can have.
    const char *const *rule_paths;
    const uint64_t *rule_rights;
    size_t rule_count;

    /// A classic BPF program (`struct sock_filter`s, 8 bytes each) installed with
    /// `PR_SET_SECCOMP` just before `execve`; NULL for none.
    const uint64_t *filter;
    size_t filter_length;
} mcp_box_spec;

/// Starts the boxed child; returns its process id, or -1 with `errno` set when it could not
/// be started at all. Set-up failures in the child come through `spec->report`.
///
/// On Linux the child is made with `clone(CLONE_VM | CLONE_VFORK | namespaces)` on a stack of
/// its own, as `posix_spawn` does: the caller's thread waits until the child has executed the
/// server or failed, so when this returns, everything the child reported is in the pipe.
pid_t mcp_box_spawn(const mcp_box_spec *spec);


// MARK: The event loop's readiness calls (Linux: epoll, eventfd, pidfd; Darwin: kqueue)
//
// Small wrappers so that Swift never touches `struct epoll_event` (which glibc declares packed
// on x86-64) or `struct kevent`. Both backends keep one contract: level-triggered readiness,
// one token per descriptor, a descriptor that cannot be polled refused when it is added.
// Darwin's kqueue backend is checked only on Linux, against libkqueue (scripts/check-kqueue.sh,
// where libkqueue is installed); it has not been built on an Apple system yet. On other
// systems every call fails with `ENOSYS`.

/// Readiness bits, in both directions: what a registration wants, and what a wait reports.
enum {
    MCP_POLL_READABLE = 1,
    MCP_POLL_WRITABLE = 2,
    /// Reported only: the peer hung up or the descriptor is in error.
    MCP_POLL_HANGUP = 4,
};

/// A poller: `epoll_create1(EPOLL_CLOEXEC)`, or `kqueue()`; -1 with `errno` on failure.
int mcp_poller_create(void);
/// Adds (`operation` 0), changes (1) or removes (2) `descriptor`, with `interest` a set of
/// `MCP_POLL_READABLE | MCP_POLL_WRITABLE` (level-triggered) and `token` what a wait reports
/// for it. 0, or -1 with `errno` (`EPERM`: the descriptor cannot be polled, such as a regular
/// file or `/dev/null`; `ENOENT`: removing a descriptor that is not registered).
///
/// With kqueue each direction is a filter (`EVFILT_READ`, `EVFILT_WRITE`) added, enabled or
/// disabled as the interest changes; only pipes, FIFOs, sockets and terminals are taken
/// (kqueue would take a regular file, epoll does not). Two differences callers must not rely
/// on: adding a registered descriptor again, or changing one that is not, is not refused
/// (epoll: `EEXIST`, `ENOENT`); and an empty interest reports nothing at all, where epoll still
/// reports a hang-up (the Swift loop removes a descriptor instead of asking for nothing).
int mcp_poller_control(int poller, int operation, int descriptor, uint32_t interest, uint64_t token);
/// Waits for readiness (`timeout_ms` -1: no timeout); fills up to `capacity` tokens and their
/// `MCP_POLL_*` bits, one result per token (kqueue's two filters of a descriptor merged);
/// returns how many, or -1 with `errno` (`EINTR` included).
int mcp_poller_wait(int poller, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms);
/// Makes the poller's waker, reported readable under `token` once signalled, and returns it
/// (-1 with `errno`): a non-blocking `eventfd` added to the poller, or kqueue's `EVFILT_USER`
/// event on the poller itself (the value returned is then the poller). Ended by
/// `mcp_waker_close` before the poller is closed.
int mcp_waker_create(int poller, uint64_t token);
/// Makes the waker readable.
void mcp_waker_signal(int waker);
/// Makes the waker not readable again (nothing to do with kqueue: a trigger is reported once).
void mcp_waker_drain(int waker);
/// Closes the waker's own descriptor, if it has one (the `eventfd`).
void mcp_waker_close(int waker);
/// `pidfd_open(pid, 0)`: a descriptor that becomes readable when the process ends; -1 with
/// `errno` (`ENOSYS` before Linux 5.3, and always with kqueue).
int mcp_pidfd_open(pid_t pid);

/// Writes up to `count` bytes to `descriptor` without waiting for room, whatever the
/// descriptor's own flags (a blocking pipe stays blocking for everyone else who shares it):
/// `pwritev2` with `RWF_NOWAIT` at the current position, `EINTR` retried. Returns the bytes
/// written (a pipe takes what it has room for, all of a write of at most `PIPE_BUF` or none
/// of it), or -1 with `errno`: `EAGAIN` when nothing can be written now; `EOPNOTSUPP` when
/// the call cannot be made this way here (not Linux, a kernel before 6.5, a seccomp filter,
/// or a descriptor whose driver does not take the flag, such as a terminal, a FIFO opened by
/// path or a regular file on ext4: write after polling instead); otherwise the write's own
/// error (`EPIPE`).
ssize_t mcp_write_nowait(int descriptor, const void *bytes, size_t count);

/// Names the calling thread on Linux (`prctl(PR_SET_NAME)`, cut to 15 bytes); does nothing
/// elsewhere (Darwin names threads through `pthread_setname_np`, which Swift can call).
void mcp_name_current_thread(const char *name);

/// Initialises `mutex` to spin briefly before it sleeps, where the C library has such a mutex
/// (glibc's `PTHREAD_MUTEX_ADAPTIVE_NP`), and as a default mutex elsewhere. For locks held a
/// few instructions at a time by threads on other cores: a contended default glibc mutex
/// sleeps in `futex` at once, a system call and a context switch where waiting a few hundred
/// nanoseconds would have done. Returns `pthread_mutex_init`'s status.
int mcp_mutex_init(pthread_mutex_t *mutex);

/// The columns of the terminal `descriptor` writes to (`ioctl(TIOCGWINSZ)`); -1 when it is
/// not a terminal or says no width.
int mcp_terminal_columns(int descriptor);

/// Marks the calling thread with `marker` (the event loop it runs), in a thread-local
/// variable: telling whether code runs on a given loop's thread then takes no lock.
void mcp_set_thread_marker(const void *marker);
/// The calling thread's marker; NULL when none was set.
const void *mcp_thread_marker_get(void);

/// Marks the calling thread with `marker` (the output whose answers it may leave for a later
/// write), in a thread-local variable of its own; NULL clears it.
void mcp_set_batch_marker(const void *marker);
/// The calling thread's batch marker; NULL when none is set.
const void *mcp_batch_marker_get(void);

#ifdef __cplusplus
}
#endif

#endif
