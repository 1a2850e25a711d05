// Control groups for one box: a limit on the whole box's tasks (`pids`) and memory
// (`memory`), under this process's own control group, in the v1 hierarchy of that controller
// where there is one, else in the unified (v2) one.

#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The control groups made for one boxed server: open `cgroup.procs` files for the child to
/// join, and what could not be made, in words.
///
/// Made in this process before the spawn; ``remove()`` kills whatever is left in them and
/// removes the directories once the server has ended.
package final class ControlGroups: Sendable {
    /// `cgroup.procs` of each group, open for writing (close-on-exec, 3 or higher).
    package let procsDescriptors: [Int32]
    /// The groups' directories.
    package let directories: [String]
    /// Each limit that could not be applied to the whole box, and why.
    package let notes: [String]

    private init(procsDescriptors: [Int32], directories: [String], notes: [String]) {
        self.procsDescriptors = procsDescriptors
        self.directories = directories
        self.notes = notes
    }

    /// Makes the groups for a box of at most `taskLimit` tasks and `memoryLimit` bytes (each
    /// `nil` for none). Never fails: a limit that cannot be applied is a note.
    package static func make(taskLimit: Int?, memoryLimit: Int?) -> ControlGroups {
        var wanted: [(controller: String, settings: [(file: String, value: String, required: Bool)])] = []
        if let taskLimit { wanted.append(("pids", [("pids.max", String(taskLimit), true)])) }
        if let memoryLimit {
            wanted.append(
                (
                    "memory",
                    [("memory.limit_in_bytes", String(memoryLimit), true), ("memory.memsw.limit_in_bytes", String(memoryLimit), false)]
                ))
        }
        guard !wanted.isEmpty else { return ControlGroups(procsDescriptors: [], directories: [], notes: []) }
        let memberships = readMemberships()
        let mounts = readMounts()
        let name = "ondevice-mcp-box-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        var descriptors: [Int32] = []
        var directories: [String] = []
        var notes: [String] = []
        for (controller, settings) in wanted {
            let what = controller == "pids" ? "the box's tasks" : "the box's memory"
            if let path = memberships.first(where: { $0.controllers.contains(controller) })?.path,
                let mount = mounts.first(where: { $0.type == "cgroup" && $0.options.contains(controller) })
            {
                switch makeGroup(at: mount.point + path, named: name, settings: settings) {
                case .success(let made):
                    descriptors.append(made.descriptor)
                    directories.append(made.directory)
                case .failure(let error):
                    notes.append("\(what) are not limited as a whole: \(error)")
                }
            } else if let path = memberships.first(where: { $0.hierarchy == 0 })?.path,
                let mount = mounts.first(where: { $0.type == "cgroup2" })
            {
                let v2Settings: [(file: String, value: String, required: Bool)] =
                    controller == "pids"
                    ? settings
                    : [("memory.max", settings[0].value, true), ("memory.swap.max", "0", false)]
                let parent = mount.point + (path == "/" ? "" : path)
                let controllers = (readText(parent + "/cgroup.subtree_control") ?? "").split(separator: " ").map(String.init)
                guard controllers.contains(controller) else {
                    notes.append(
                        "\(what) are not limited as a whole: the \(controller) controller is not enabled for children of \(parent)")
                    continue
                }
                switch makeGroup(at: parent, named: name + "-" + controller, settings: v2Settings) {
                case .success(let made):
                    descriptors.append(made.descriptor)
                    directories.append(made.directory)
                case .failure(let error):
                    notes.append("\(what) are not limited as a whole: \(error)")
                }
            } else {
                notes.append("\(what) are not limited as a whole: this system has no \(controller) control group for this process")
            }
        }
        return ControlGroups(procsDescriptors: descriptors, directories: directories, notes: notes)
    }

    /// Ends every process still in the groups (`SIGKILL`), closes the descriptors and removes
    /// the directories (a group whose killed processes have not been reaped yet stays, empty).
    package func remove() {
        for descriptor in procsDescriptors { POSIX.close(descriptor) }
        for directory in directories {
            for line in (Self.readText(directory + "/cgroup.procs") ?? "").split(separator: "\n") {
                if let pid = Int32(line), pid > 0 { POSIX.send(signal: SIGKILL, to: pid) }
            }
            _ = rmdir(directory)
        }
    }

    // MARK: Reading /proc

    private struct Membership {
        let hierarchy: Int
        let controllers: [String]
        let path: String
    }

    private struct Mount {
        let point: String
        let type: String
        let options: [String]
    }

    /// `/proc/self/cgroup`: `hierarchy:controllers:path` per line.
    private static func readMemberships() -> [Membership] {
        (readText("/proc/self/cgroup") ?? "").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let hierarchy = Int(fields[0]) else { return nil }
            return Membership(
                hierarchy: hierarchy, controllers: fields[1].split(separator: ",").map(String.init), path: String(fields[2]))
        }
    }

    /// The cgroup mounts of `/proc/self/mountinfo`: mount point, type, and super options.
    private static func readMounts() -> [Mount] {
        (readText("/proc/self/mountinfo") ?? "").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard let separator = fields.firstIndex(of: "-"), fields.count > separator + 3, fields.count > 4 else { return nil }
            let type = String(fields[separator + 1])
            guard type == "cgroup" || type == "cgroup2" else { return nil }
            return Mount(
                point: unescape(String(fields[4])), type: type,
                options: fields[separator + 3].split(separator: ",").map(String.init))
        }
    }

    /// A mountinfo path with its octal escapes (`\040` for a space) decoded.
    private static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "\\"), input.count >= 3, let value = UInt8(String(decoding: input.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                input = input.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func readText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { POSIX.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in (try? POSIX.read(descriptor, into: buffer)) ?? -1 }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            if bytes.count > 1 << 20 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Making a group

    /// Makes `parent/name`, writes its settings and opens its `cgroup.procs`.
    private static func makeGroup(
        at parent: String, named name: String, settings: [(file: String, value: String, required: Bool)]
    ) -> Result<(directory: String, descriptor: Int32), Errno> {
        let directory = parent + "/" + name
        guard mkdir(directory, 0o755) == 0 else { return .failure(Errno.current("mkdir(\(directory))")) }
        do throws(Errno) {
            for setting in settings {
                do throws(Errno) {
                    try write(setting.value, to: directory + "/" + setting.file)
                } catch {
                    if setting.required { throw error }
                }
            }
            let opened = open(directory + "/cgroup.procs", O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Errno.current("open(\(directory)/cgroup.procs)") }
            let descriptor: Int32
            if opened < 3 {
                defer { POSIX.close(opened) }
                descriptor = try POSIX.duplicate(opened)
            } else {
                descriptor = opened
            }
            return .success((directory, descriptor))
        } catch {
            _ = rmdir(directory)
            return .failure(error)
        }
    }

    private static func write(_ text: String, to path: String) throws(Errno) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Errno.current("open(\(path))") }
        defer { POSIX.close(descriptor) }
        try POSIX.writeAll(descriptor, Array(text.utf8))
    }
}
#endif
