// Runs a command and records its peak resident memory, for the tests that bound it.
//
// Usage: PeakRSS RESULT-FILE COMMAND [ARGUMENTS...]
//
// Why a trampoline: `wait4`'s `ru_maxrss` for a child started with `posix_spawn` (a vfork on
// Linux) includes the parent's own peak, because the kernel charges the memory the child
// leaves at `exec` (the parent's, shared until then) to the child's high-water mark. The
// test process is large, so the tests measure through this small process instead: its own
// peak is what its command is charged at `exec`, a few MiB, and what it writes is exact for
// everything after.
//
// The command inherits standard input, output and error; this process then closes its own
// copies, so that the ends of input and output are the command's alone. When the command has
// ended, RESULT-FILE gets one line: "<wait status> <ru_maxrss in KiB>". The exit status is 0,
// or 127 when the command could not be started (nothing is written then).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

func complain(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    complain("usage: PeakRSS RESULT-FILE COMMAND [ARGUMENTS...]\n")
    exit(2)
}
let argv = arguments.dropFirst(2).map { strdup($0) } + [nil]
var pid: pid_t = 0
let spawned = posix_spawn(&pid, arguments[2], nil, nil, argv, environ)
guard spawned == 0 else {
    complain("PeakRSS: cannot start \(arguments[2]): \(String(cString: strerror(spawned)))\n")
    exit(127)
}
close(STDIN_FILENO)
close(STDOUT_FILENO)
close(STDERR_FILENO)

var status: Int32 = 0
var usage = rusage()
while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
let descriptor = open(arguments[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
guard descriptor >= 0 else { exit(1) }
let line = Array("\(status) \(usage.ru_maxrss)\n".utf8)
let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
close(descriptor)
exit(written == line.count ? 0 : 1)
