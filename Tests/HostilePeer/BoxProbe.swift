// The `box-probe` mode: on `tools/call` of `probe`, try one thing a boxed server must not be
// able to do, and say whether it worked.
//
// Arguments: {"action": A, "target": T}. The answer is a text result: "done: …" when the
// attempt succeeded, "stopped: …" (with the error) when it failed. `cpu` has no answer when
// the CPU limit ends the process first.

import MCPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `box-probe` tries, by action name.
func boxProbe(action: String, target: String) -> String {
    switch action {
    case "read": return probeRead(target)
    case "write": return probeWrite(target)
    case "connect": return probeConnect(target)
    case "connect-mptcp": return probeConnect(target, multipath: true)
    case "udp": return probeUDP(target)
    case "listen": return probeListen()
    case "env": return probeEnvironment(target)
    case "allocate": return probeAllocate(target)
    case "fork": return probeFork(target)
    case "cpu": return probeCPU(target)
    case "capabilities": return probeCapabilities()
    default: return "unknown action \(action)"
    }
}

func errnoText() -> String {
    "\(String(cString: strerror(errno))) (errno \(errno))"
}

/// Opens and reads the file `path`.
func probeRead(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "stopped: open: \(errnoText())" }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count >= 0 else { return "stopped: read: \(errnoText())" }
    return "done: read \(count) bytes: \(String(decoding: buffer[0..<count], as: UTF8.self))"
}

/// Creates (or truncates) the file `path` and writes to it.
func probeWrite(_ path: String) -> String {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return "stopped: open: \(errnoText())" }
    defer { close(descriptor) }
    let text = Array("written by the probe\n".utf8)
    let count = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard count == text.count else { return "stopped: write: \(errnoText())" }
    return "done: wrote \(count) bytes"
}

/// Connects to TCP port `port` on 127.0.0.1 (with Multipath TCP, `IPPROTO_MPTCP`, when `multipath`).
func probeConnect(_ port: String, multipath: Bool = false) -> String {
    guard let number = UInt16(port) else { return "bad port \(port)" }
    #if canImport(Darwin)
    let socketType = SOCK_STREAM
    #else
    let socketType = Int32(SOCK_STREAM.rawValue)
    #endif
    let descriptor = socket(AF_INET, socketType, multipath ? 262 : 0)
    guard descriptor >= 0 else { return "stopped: socket: \(errnoText())" }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = number.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else { return "stopped: connect: \(errnoText())" }
    return "done: connected to 127.0.0.1:\(number)"
}

/// Reads the environment variable `name`.
func probeEnvironment(_ name: String) -> String {
    guard let value = getenv(name) else { return "stopped: \(name) is not set" }
    return "done: \(name)=\(String(cString: value))"
}

/// Maps `mebibytes` MiB of address space (without touching it, so no memory is used).
func probeAllocate(_ mebibytes: String) -> String {
    guard let count = Int(mebibytes) else { return "bad size \(mebibytes)" }
    let size = count << 20
    guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED else {
        return "stopped: mmap of \(count) MiB: \(errnoText())"
    }
    munmap(mapped, size)
    return "done: mapped \(count) MiB"
}

/// Starts up to `count` child processes that wait on a pipe, then lets them all go and
/// reaps them: bounded, so it never hurts the machine.
func probeFork(_ count: String) -> String {
    guard let wanted = Int(count), wanted > 0, wanted <= 500 else { return "bad count \(count)" }
    #if canImport(Darwin)
    return "fork is unavailable to Swift here (wanted \(wanted))"
    #else
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return "stopped: pipe: \(errnoText())" }
    var children: [pid_t] = []
    var failure: String?
    for _ in 0..<wanted {
        let pid = fork()
        if pid == 0 {
            close(ends[1])
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)  // returns at end of file, when the parent closes its end
            _exit(0)
        }
        if pid < 0 {
            failure = "fork: \(errnoText())"
            break
        }
        children.append(pid)
    }
    close(ends[0])
    close(ends[1])
    for child in children {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    }
    if let failure { return "stopped after \(children.count) processes: \(failure)" }
    return "done: started \(children.count) processes"
    #endif
}

/// Uses `seconds` of CPU time, then answers.
func probeCPU(_ seconds: String) -> String {
    guard let wanted = Double(seconds), wanted > 0, wanted <= 30 else { return "bad duration \(seconds)" }
    var counter: UInt64 = 0
    while true {
        for _ in 0..<1_000_000 { counter = counter &* 6_364_136_223_846_793_005 &+ 1 }
        // clock(): this process's CPU time, in millionths of a second (POSIX's CLOCKS_PER_SEC).
        let used = Double(clock()) / 1_000_000
        if used >= wanted { return "done: used \(used) s of CPU (\(counter % 10))" }
    }
}

/// The effective capabilities, from `/proc/self/status` ("done: CapEff 000001ffffffffff").
func probeCapabilities() -> String {
    let text = probeRead("/proc/self/status")
    guard text.hasPrefix("done") else { return text }
    let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "stopped: open: \(errnoText())" }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return "stopped: read: \(errnoText())" }
    let status = String(decoding: buffer[0..<count], as: UTF8.self)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }) else { return "no CapEff line" }
    return "done: CapEff \(line.dropFirst("CapEff:".count).drop(while: { $0 == " " || $0 == "\t" }))"
}

/// Sends one UDP datagram to port `port` on 127.0.0.1.
func probeUDP(_ port: String) -> String {
    guard let number = UInt16(port) else { return "bad port \(port)" }
    #if canImport(Darwin)
    let socketType = SOCK_DGRAM
    #else
    let socketType = Int32(SOCK_DGRAM.rawValue)
    #endif
    let descriptor = socket(AF_INET, socketType, 0)
    guard descriptor >= 0 else { return "stopped: socket: \(errnoText())" }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = number.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let byte: [UInt8] = [0x2A]
    let sent = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            byte.withUnsafeBytes { sendto(descriptor, $0.baseAddress, 1, 0, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
    guard sent == 1 else { return "stopped: sendto: \(errnoText())" }
    return "done: sent a datagram to 127.0.0.1:\(number)"
}

/// Listens on a TCP socket it never bound (the kernel picks a port on every interface).
func probeListen() -> String {
    #if canImport(Darwin)
    let socketType = SOCK_STREAM
    #else
    let socketType = Int32(SOCK_STREAM.rawValue)
    #endif
    let descriptor = socket(AF_INET, socketType, 0)
    guard descriptor >= 0 else { return "stopped: socket: \(errnoText())" }
    defer { close(descriptor) }
    guard listen(descriptor, 1) == 0 else { return "stopped: listen: \(errnoText())" }
    return "done: listening without bind"
}
