// The child side of the process box (see CMCPPlatform.h for why this is C).
//
// Linux: the child is cloned with CLONE_VM | CLONE_VFORK on a stack of its own, so it shares
// the caller's memory until it executes the server: it must not write anything but its own
// stack and the kernel. So the clone itself and every call of the child are raw system calls
// (inline `syscall`/`svc`, which touch no `errno` and go through no C-library or sanitizer
// code), and the caller blocks every signal around the clone so that no handler of the
// caller's can run on the child's thread before the child has reset them all.

#define _GNU_SOURCE
#include "CMCPPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <TargetConditionals.h>
#endif
// Where an app may start a process: macOS and Mac Catalyst (Darwin's `fork` is unavailable on
// watchOS and tvOS, and iOS and visionOS apps may not start processes), as Package.swift's
// MCP_CAN_SPAWN for the Swift side.
#if defined(__APPLE__) && (TARGET_OS_OSX || (defined(TARGET_OS_MACCATALYST) && TARGET_OS_MACCATALYST))
#define MCP_BOX_SPAWN_DARWIN 1
#endif

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#if !defined(__x86_64__) && !defined(__aarch64__)
#error "the process box knows the system calls of x86-64 and arm64 only"
#endif

// Numbers shared by every architecture (the unified table, Linux 5.0 and later), for C
// libraries whose headers predate them.
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

// Flags and structures of the kernel's interface, spelled out so that no header version matters.
#define BOX_AT_FDCWD (-100)
#define BOX_AT_RECURSIVE 0x8000
#define BOX_MOUNT_ATTR_RDONLY 0x00000001ULL
#define BOX_MS_NOSUID 2UL
#define BOX_MS_NODEV 4UL
#define BOX_MS_NOEXEC 8UL
#define BOX_MS_BIND 4096UL
#define BOX_MS_REC 16384UL
#define BOX_MS_PRIVATE (1UL << 18)
#define BOX_O_PATH 010000000
#define BOX_O_WRONLY 01
#define BOX_O_CLOEXEC 02000000
#define BOX_F_DUPFD_CLOEXEC 1030
#define BOX_KEYCTL_JOIN_SESSION_KEYRING 1
#define BOX_PR_CAPBSET_DROP 24
#define BOX_PR_SET_SECUREBITS 28
#define BOX_PR_SET_NO_NEW_PRIVS 38
#define BOX_PR_CAP_AMBIENT 47
#define BOX_PR_CAP_AMBIENT_CLEAR_ALL 4
#define BOX_PR_SET_SECCOMP 22
#define BOX_SECCOMP_MODE_FILTER 2
#define BOX_RLIMIT_NOFILE 7
#define BOX_SIG_SETMASK 2
// SECBIT_NOROOT, NO_SETUID_FIXUP, KEEP_CAPS and NO_CAP_AMBIENT_RAISE, each with its lock bit
// except KEEP_CAPS (locked off).
#define BOX_SECUREBITS 0xEF
// LANDLOCK_ACCESS_FS_EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV: the rights a
// rule on a file (not a directory) may hold.
#define BOX_LANDLOCK_FILE_RIGHTS ((1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 14) | (1ULL << 15))

struct box_mount_attr {
    uint64_t attr_set;
    uint64_t attr_clr;
    uint64_t propagation;
    uint64_t userns_fd;
};

struct box_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct box_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

struct box_sock_fprog {
    unsigned short len;
    const uint64_t *filter;
};

struct box_cap_header {
    uint32_t version;
    int pid;
};

struct box_cap_data {
    uint32_t effective;
    uint32_t permitted;
    uint32_t inheritable;
};

struct box_rlimit {
    uint64_t soft;
    uint64_t hard;
};

// struct sigaction as the kernel takes it (x86-64 and arm64): handler, flags, restorer, mask.
struct box_sigaction {
    unsigned long handler;
    unsigned long flags;
    unsigned long restorer;
    uint64_t mask;
};

// The child runs on the caller's memory: no sanitizer may instrument it (ThreadSanitizer's
// function-entry hooks alone would write to the caller's thread state).
#define BOX_NO_SANITIZE __attribute__((disable_sanitizer_instrumentation))

/// A system call with six arguments; returns the result, or -errno.
BOX_NO_SANITIZE static inline long box_call(long number, long a, long b, long c, long d, long e, long f) {
#if defined(__x86_64__)
    long result;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return result;
#else
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory", "cc");
    return x0;
#endif
}

#define CALL0(n) box_call((n), 0, 0, 0, 0, 0, 0)
#define CALL1(n, a) box_call((n), (long)(a), 0, 0, 0, 0, 0)
#define CALL2(n, a, b) box_call((n), (long)(a), (long)(b), 0, 0, 0, 0)
#define CALL3(n, a, b, c) box_call((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define CALL4(n, a, b, c, d) box_call((n), (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define CALL5(n, a, b, c, d, e) box_call((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

/// The child's own state, on its own stack.
typedef struct {
    const mcp_box_spec *spec;
    int report;
} box_child_state;

BOX_NO_SANITIZE static size_t box_length(const char *text) {
    size_t length = 0;
    while (text[length] != 0) length++;
    return length;
}

/// Writes a report record (a short write to a pipe this small cannot happen).
BOX_NO_SANITIZE static void box_report(box_child_state *state, int stage, long result, int index, int fatal) {
    mcp_box_report record = {stage, (int32_t)(result < 0 ? -result : result), index, fatal};
    (void)CALL3(SYS_write, state->report, &record, sizeof record);
}

/// Reports a failure and ends the child: 127 when the server does not exist, 126 when it
/// could not be executed, 125 when the box could not be set up.
BOX_NO_SANITIZE __attribute__((noreturn)) static void box_fail(box_child_state *state, int stage, long result, int index) {
    box_report(state, stage, result, index, 1);
    int status = 125;
    if (stage == MCP_BOX_STAGE_EXEC) status = (result == -ENOENT) ? 127 : 126;
    for (;;) (void)CALL1(SYS_exit_group, status);
}

/// Writes all of `text` to the file at `path` (for the user-namespace maps).
BOX_NO_SANITIZE static long box_write_file(const char *path, const char *text) {
    long descriptor = CALL4(SYS_openat, BOX_AT_FDCWD, path, BOX_O_WRONLY | BOX_O_CLOEXEC, 0);
    if (descriptor < 0) return descriptor;
    size_t length = box_length(text);
    long written = CALL3(SYS_write, descriptor, text, length);
    (void)CALL1(SYS_close, descriptor);
    if (written < 0) return written;
    return written == (long)length ? 0 : -EIO;
}

BOX_NO_SANITIZE static void box_reset_signals(box_child_state *state) {
    struct box_sigaction defaults = {0, 0, 0, 0};
    for (long signal = 1; signal <= 64; signal++) {
        // SIGKILL and SIGSTOP (and the C library's private signals' numbers) refuse: fine.
        (void)CALL4(SYS_rt_sigaction, signal, &defaults, 0, 8);
    }
    uint64_t none = 0;
    long result = CALL4(SYS_rt_sigprocmask, BOX_SIG_SETMASK, &none, 0, 8);
    if (result < 0) box_fail(state, MCP_BOX_STAGE_SIGNALS, result, -1);
}

BOX_NO_SANITIZE static void box_set_up_namespaces(box_child_state *state) {
    const mcp_box_spec *spec = state->spec;
    long result;
    if (spec->namespaces & CLONE_NEWUSER) {
        result = box_write_file("/proc/self/setgroups", "deny");
        if (result == 0) result = box_write_file("/proc/self/uid_map", spec->uid_map);
        if (result == 0) result = box_write_file("/proc/self/gid_map", spec->gid_map);
        if (result < 0) box_fail(state, MCP_BOX_STAGE_USER_MAPS, result, -1);
    }
    if (!(spec->namespaces & CLONE_NEWNS)) return;
    result = CALL5(SYS_mount, 0, "/", 0, BOX_MS_REC | BOX_MS_PRIVATE, 0);
    if (result < 0) box_fail(state, MCP_BOX_STAGE_MOUNT_PRIVATE, result, -1);
    if (spec->read_only_mounts) {
        struct box_mount_attr read_only = {BOX_MOUNT_ATTR_RDONLY, 0, 0, 0};
        result = CALL5(SYS_mount_setattr, BOX_AT_FDCWD, "/", BOX_AT_RECURSIVE, &read_only, sizeof read_only);
        if (result < 0) box_fail(state, MCP_BOX_STAGE_MOUNT_READ_ONLY, result, -1);
        struct box_mount_attr writable = {0, BOX_MOUNT_ATTR_RDONLY, 0, 0};
        for (size_t index = 0; index < spec->writable_count; index++) {
            const char *path = spec->writable_paths[index];
            result = CALL5(SYS_mount, path, path, 0, BOX_MS_BIND | BOX_MS_REC, 0);
            if (result == 0 && !spec->writable_stays_read_only[index]) {
                result = CALL5(SYS_mount_setattr, BOX_AT_FDCWD, path, 0, &writable, sizeof writable);
            }
            if (result < 0) box_fail(state, MCP_BOX_STAGE_MOUNT_WRITABLE, result, (int)index);
        }
    }
    if (spec->data_directory) {
        result = CALL5(SYS_mount, "tmpfs", spec->data_directory, "tmpfs", BOX_MS_NOSUID | BOX_MS_NODEV, spec->data_mount_options);
        if (result < 0) box_fail(state, MCP_BOX_STAGE_MOUNT_DATA, result, -1);
        for (size_t index = 0; index < spec->data_subdirectory_count; index++) {
            result = CALL3(SYS_mkdirat, BOX_AT_FDCWD, spec->data_subdirectories[index], 0700);
            if (result < 0) box_fail(state, MCP_BOX_STAGE_DATA_SUBDIRECTORY, result, (int)index);
        }
    }
    if (spec->mount_proc) {
        result = CALL5(SYS_mount, "proc", "/proc", "proc", BOX_MS_NOSUID | BOX_MS_NODEV | BOX_MS_NOEXEC, 0);
        if (result < 0) box_report(state, MCP_BOX_STAGE_MOUNT_PROC, result, -1, 0);
    }
}

/// Standard input, output and error on 0, 1 and 2, the report pipe on 3 (close-on-exec),
/// nothing else.
BOX_NO_SANITIZE static void box_arrange_descriptors(box_child_state *state) {
    const mcp_box_spec *spec = state->spec;
    int sources[4] = {spec->standard_input, spec->standard_output, spec->standard_error < 0 ? 2 : spec->standard_error, spec->report};
    int base = 4;
    for (int index = 0; index < 4; index++) {
        if (sources[index] >= base) base = sources[index] + 1;
    }
    int copies[4];
    for (int index = 0; index < 4; index++) {
        long copy = CALL3(SYS_fcntl, sources[index], BOX_F_DUPFD_CLOEXEC, base);
        if (copy < 0) box_fail(state, MCP_BOX_STAGE_DESCRIPTORS, copy, index);
        copies[index] = (int)copy;
    }
    for (int index = 0; index < 4; index++) {
        long result = CALL3(SYS_dup3, copies[index], index, index == 3 ? BOX_O_CLOEXEC : 0);
        if (result < 0) box_fail(state, MCP_BOX_STAGE_DESCRIPTORS, result, index);
    }
    state->report = 3;
    long result = CALL3(SYS_close_range, 4, ~0U, 0);
    if (result == -ENOSYS) {
        struct box_rlimit files = {0, 0};
        long got = CALL4(SYS_prlimit64, 0, BOX_RLIMIT_NOFILE, 0, &files);
        uint64_t end = got < 0 || files.soft > (1u << 20) ? (1u << 20) : files.soft;
        for (uint64_t descriptor = 4; descriptor < end; descriptor++) (void)CALL1(SYS_close, descriptor);
    } else if (result < 0) {
        box_fail(state, MCP_BOX_STAGE_DESCRIPTORS, result, -1);
    }
}

BOX_NO_SANITIZE static void box_drop_privileges(box_child_state *state) {
    long result = CALL5(SYS_prctl, BOX_PR_CAP_AMBIENT, BOX_PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    if (result < 0 && result != -EINVAL) box_fail(state, MCP_BOX_STAGE_CAPABILITIES, result, -1);
    for (long capability = 0; capability < 64; capability++) {
        result = CALL5(SYS_prctl, BOX_PR_CAPBSET_DROP, capability, 0, 0, 0);
        if (result == -EINVAL || result == -EPERM) break;  // past the last one; or nothing to drop
        if (result < 0) box_fail(state, MCP_BOX_STAGE_CAPABILITIES, result, (int)capability);
    }
    // Without CAP_SETPCAP (an ordinary user outside a user namespace) there are no root
    // privileges to lock away.
    result = CALL5(SYS_prctl, BOX_PR_SET_SECUREBITS, BOX_SECUREBITS, 0, 0, 0);
    if (result < 0 && result != -EPERM) box_fail(state, MCP_BOX_STAGE_CAPABILITIES, result, -1);
    struct box_cap_header header = {0x20080522, 0};
    struct box_cap_data data[2] = {{0, 0, 0}, {0, 0, 0}};
    result = CALL2(SYS_capset, &header, data);
    if (result < 0) box_fail(state, MCP_BOX_STAGE_CAPABILITIES, result, -1);
    result = CALL5(SYS_prctl, BOX_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (result < 0) box_fail(state, MCP_BOX_STAGE_NO_NEW_PRIVILEGES, result, -1);
}

BOX_NO_SANITIZE static void box_landlock(box_child_state *state) {
    const mcp_box_spec *spec = state->spec;
    struct box_landlock_ruleset_attr attributes = {spec->landlock_handled_fs, spec->landlock_handled_net, spec->landlock_scoped};
    long ruleset = CALL3(SYS_landlock_create_ruleset, &attributes, spec->landlock_attribute_size, 0);
    if (ruleset < 0) box_fail(state, MCP_BOX_STAGE_LANDLOCK_RULESET, ruleset, -1);
    for (size_t index = 0; index < spec->rule_count; index++) {
        long opened = CALL4(SYS_openat, BOX_AT_FDCWD, spec->rule_paths[index], BOX_O_PATH | BOX_O_CLOEXEC, 0);
        if (opened < 0) box_fail(state, MCP_BOX_STAGE_LANDLOCK_RULE, opened, (int)index);
        struct stat info;
        long result = CALL2(SYS_fstat, opened, &info);
        if (result < 0) box_fail(state, MCP_BOX_STAGE_LANDLOCK_RULE, result, (int)index);
        uint64_t rights = spec->rule_rights[index] & spec->landlock_handled_fs;
        if ((info.st_mode & S_IFMT) != S_IFDIR) rights &= BOX_LANDLOCK_FILE_RIGHTS;
        if (rights != 0) {
            struct box_landlock_path_beneath_attr rule = {rights, (int32_t)opened};
            result = CALL4(SYS_landlock_add_rule, ruleset, 1, &rule, 0);
            if (result < 0) box_fail(state, MCP_BOX_STAGE_LANDLOCK_RULE, result, (int)index);
        }
        (void)CALL1(SYS_close, opened);
    }
    long result = CALL2(SYS_landlock_restrict_self, ruleset, 0);
    if (result < 0) box_fail(state, MCP_BOX_STAGE_LANDLOCK_RESTRICT, result, -1);
    (void)CALL1(SYS_close, ruleset);
}

BOX_NO_SANITIZE static int box_child(void *argument) {
    box_child_state state = {(const mcp_box_spec *)argument, ((const mcp_box_spec *)argument)->report};
    const mcp_box_spec *spec = state.spec;
    box_reset_signals(&state);
    box_set_up_namespaces(&state);
    for (size_t index = 0; index < spec->cgroup_count; index++) {
        long result = CALL3(SYS_write, spec->cgroup_procs[index], "0", 1);
        if (result < 0) box_fail(&state, MCP_BOX_STAGE_CGROUP, result, (int)index);
    }
    box_arrange_descriptors(&state);
    long result = CALL0(SYS_setsid);
    if (result < 0) box_fail(&state, MCP_BOX_STAGE_SESSION, result, -1);
    if (spec->directory) {
        result = CALL1(SYS_chdir, spec->directory);
        if (result < 0) box_fail(&state, MCP_BOX_STAGE_DIRECTORY, result, -1);
    }
    if (spec->new_session_keyring) {
        result = CALL2(SYS_keyctl, BOX_KEYCTL_JOIN_SESSION_KEYRING, 0);
        if (result < 0 && result != -ENOSYS) box_fail(&state, MCP_BOX_STAGE_KEYRING, result, -1);
    }
    for (size_t index = 0; index < spec->limit_count; index++) {
        struct box_rlimit limit = {spec->limit_soft[index], spec->limit_hard[index]};
        result = CALL4(SYS_prlimit64, 0, spec->limit_resources[index], &limit, 0);
        if (result < 0) box_fail(&state, MCP_BOX_STAGE_LIMIT, result, (int)index);
    }
    if (spec->drop_privileges) box_drop_privileges(&state);
    if (spec->landlock_attribute_size) box_landlock(&state);
    if (spec->filter) {
        struct box_sock_fprog program = {(unsigned short)spec->filter_length, spec->filter};
        result = CALL5(SYS_prctl, BOX_PR_SET_SECCOMP, BOX_SECCOMP_MODE_FILTER, &program, 0, 0);
        if (result < 0) box_fail(&state, MCP_BOX_STAGE_SECCOMP, result, -1);
    }
    result = CALL3(SYS_execve, spec->path, spec->argv, spec->envp);
    box_fail(&state, MCP_BOX_STAGE_EXEC, result, -1);
}

// clone(2) onto a stack of the child's own, calling `fn(arg)` there and ending the child with
// its result, like the C library's `clone` but without it: a sanitizer's interceptor of
// `clone` would run in the child on the caller's memory. Returns the child's id or -errno.
long box_clone(unsigned long flags, void *stack, int (*fn)(void *), void *arg);
#if defined(__x86_64__)
__asm__(
    ".text\n"
    ".globl box_clone\n"
    ".hidden box_clone\n"
    ".type box_clone,@function\n"
    "box_clone:\n"
    "    andq $-16, %rsi\n"
    "    subq $16, %rsi\n"
    "    movq %rdx, 0(%rsi)\n"    // fn
    "    movq %rcx, 8(%rsi)\n"    // arg
    "    movl $56, %eax\n"        // SYS_clone(flags, newsp, parent_tid, child_tid, tls)
    "    xorl %edx, %edx\n"
    "    xorl %r10d, %r10d\n"
    "    xorl %r8d, %r8d\n"
    "    syscall\n"
    "    testq %rax, %rax\n"
    "    jnz 1f\n"
    "    xorl %ebp, %ebp\n"       // the child, on its own stack
    "    popq %rax\n"
    "    popq %rdi\n"
    "    call *%rax\n"
    "    movl %eax, %edi\n"
    "    movl $231, %eax\n"       // SYS_exit_group
    "    syscall\n"
    "    hlt\n"
    "1:  ret\n"
    ".size box_clone, .-box_clone\n");
#else
__asm__(
    ".text\n"
    ".globl box_clone\n"
    ".hidden box_clone\n"
    ".type box_clone,%function\n"
    "box_clone:\n"
    "    and x1, x1, #-16\n"
    "    stp x2, x3, [x1, #-16]!\n"  // fn, arg
    "    mov x2, xzr\n"               // SYS_clone(flags, newsp, parent_tid, tls, child_tid)
    "    mov x3, xzr\n"
    "    mov x4, xzr\n"
    "    mov x8, #220\n"
    "    svc #0\n"
    "    cbnz x0, 1f\n"
    "    mov x29, xzr\n"              // the child, on its own stack
    "    ldp x1, x0, [sp], #16\n"
    "    blr x1\n"
    "    mov x8, #94\n"               // SYS_exit_group
    "    svc #0\n"
    "1:  ret\n"
    ".size box_clone, .-box_clone\n");
#endif

pid_t mcp_box_spawn(const mcp_box_spec *spec) {
    const size_t stack_size = 256 * 1024;
    void *stack = mmap(0, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    unsigned long flags = CLONE_VM | CLONE_VFORK | SIGCHLD | (unsigned long)(unsigned int)spec->namespaces;
    long result = box_clone(flags, (char *)stack + stack_size, box_child, (void *)spec);
    pthread_sigmask(SIG_SETMASK, &previous, 0);
    // CLONE_VFORK: the child has executed the server or ended, and no longer uses its stack.
    munmap(stack, stack_size);
    if (result < 0) {
        errno = (int)-result;
        return -1;
    }
    return (pid_t)result;
}

#elif defined(MCP_BOX_SPAWN_DARWIN)
#include <sys/resource.h>

/// Darwin: fork, then only async-signal-safe calls until `execve` (of `sandbox-exec`, which
/// applies the profile and executes the server).
static void box_report_darwin(int descriptor, int stage, int error, int index) {
    mcp_box_report record = {stage, error, index, 1};
    (void)write(descriptor, &record, sizeof record);
}

__attribute__((noreturn)) static void box_fail_darwin(int descriptor, int stage, int error, int index) {
    box_report_darwin(descriptor, stage, error, index);
    _exit(stage == MCP_BOX_STAGE_EXEC ? (error == ENOENT ? 127 : 126) : 125);
}

pid_t mcp_box_spawn(const mcp_box_spec *spec) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    struct sigaction defaults;
    defaults.sa_handler = SIG_DFL;
    defaults.sa_flags = 0;
    sigemptyset(&defaults.sa_mask);
    for (int signal = 1; signal < NSIG; signal++) (void)sigaction(signal, &defaults, 0);
    sigset_t none;
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, 0);
    int report = spec->report;
    int sources[4] = {spec->standard_input, spec->standard_output, spec->standard_error < 0 ? 2 : spec->standard_error, spec->report};
    int base = 4;
    for (int index = 0; index < 4; index++) {
        if (sources[index] >= base) base = sources[index] + 1;
    }
    int copies[4];
    for (int index = 0; index < 4; index++) {
        copies[index] = fcntl(sources[index], F_DUPFD_CLOEXEC, base);
        if (copies[index] < 0) box_fail_darwin(report, MCP_BOX_STAGE_DESCRIPTORS, errno, index);
    }
    for (int index = 0; index < 4; index++) {
        if (dup2(copies[index], index) < 0) box_fail_darwin(report, MCP_BOX_STAGE_DESCRIPTORS, errno, index);
    }
    report = 3;
    (void)fcntl(3, F_SETFD, FD_CLOEXEC);
    struct rlimit files;
    int end = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? (int)files.rlim_cur : 65536;
    for (int descriptor = 4; descriptor < end; descriptor++) (void)close(descriptor);
    if (setsid() < 0) box_fail_darwin(report, MCP_BOX_STAGE_SESSION, errno, -1);
    if (spec->directory && chdir(spec->directory) < 0) box_fail_darwin(report, MCP_BOX_STAGE_DIRECTORY, errno, -1);
    for (size_t index = 0; index < spec->limit_count; index++) {
        struct rlimit limit = {(rlim_t)spec->limit_soft[index], (rlim_t)spec->limit_hard[index]};
        if (setrlimit(spec->limit_resources[index], &limit) < 0) {
            box_fail_darwin(report, MCP_BOX_STAGE_LIMIT, errno, (int)index);
        }
    }
    execve(spec->path, spec->argv, spec->envp);
    box_fail_darwin(report, MCP_BOX_STAGE_EXEC, errno, -1);
}

#else
pid_t mcp_box_spawn(const mcp_box_spec *spec) {
    (void)spec;
    errno = ENOSYS;
    return -1;
}
#endif
