// Starting a boxed child: the request, in Swift values, made into the C spec that the child's
// side (CMCPPlatform) applies between clone and execve; and what the child reported.

internal import CMCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Processes can be started on macOS, Mac Catalyst and Linux only (MCP_CAN_SPAWN, Package.swift):
// the wait family is unavailable on watchOS and tvOS, and iOS and visionOS apps may not spawn.
#if MCP_CAN_SPAWN

/// Starts a server in its box, with every rule applied by the child itself before `execve`:
/// no launcher process, nothing of the box on any command line. Linux and macOS; elsewhere
/// (iOS, visionOS, where an app may not start processes) every spawn fails with `ENOSYS`.
package enum BoxSpawn {
    /// What the child sets up, in the order it does (see `mcp_box_spec` in CMCPPlatform).
    package struct Request: Sendable {
        package var path: String
        /// The server's argument vector, its program name first.
        package var arguments: [String]
        /// `NAME=value` entries: the server's whole environment.
        package var environment: [String]
        package var directory: String?
        package var standardInput: Int32
        package var standardOutput: Int32
        /// `nil`: this process's standard error.
        package var standardError: Int32?
        /// Linux `CLONE_NEW*` flags; 0 for none (the child starts a process group of its own).
        package var namespaces: Int32 = 0
        package var userMap: String?
        package var groupMap: String?
        package var readOnlyMounts = false
        package var writablePaths: [(path: String, staysReadOnly: Bool)] = []
        package var dataDirectory: (path: String, options: String, subdirectories: [String])?
        package var mountsProc = false
        /// Open `cgroup.procs` descriptors (3 or higher) the child joins.
        package var cgroupProcs: [Int32] = []
        package var limits: [(resource: Int32, soft: UInt64, hard: UInt64)] = []
        package var dropsPrivileges = false
        package var newSessionKeyring = false
        /// `landlock_ruleset_attr`: its size (8, 16 or 24) and fields; `nil` for no Landlock.
        package var landlock: (size: Int, fileSystem: UInt64, network: UInt64, scoped: UInt64)?
        package var rules: [(path: String, rights: UInt64)] = []
        package var filter: [UInt64]?

        package init(path: String, arguments: [String], environment: [String], standardInput: Int32, standardOutput: Int32) {
            self.path = path
            self.arguments = arguments
            self.environment = environment
            self.standardInput = standardInput
            self.standardOutput = standardOutput
        }
    }

    /// Where the child's set-up stopped.
    package enum Stage: Int32, Sendable, CustomStringConvertible {
        case userMaps = 1
        case mountPrivate, mountReadOnly, mountWritable, mountData, dataSubdirectory, mountProc, cgroup
        case descriptors, session, directory, keyring, limit, capabilities, noNewPrivileges
        case landlockRuleset, landlockRule, landlockRestrict, seccomp, exec, signals

        package var description: String {
            switch self {
            case .userMaps: "writing the user namespace's maps"
            case .mountPrivate: "making its mounts private"
            case .mountReadOnly: "making the file system read-only"
            case .mountWritable: "making a writable path writable"
            case .mountData: "mounting its data directory"
            case .dataSubdirectory: "making a directory in its data directory"
            case .mountProc: "mounting its own /proc"
            case .cgroup: "joining its control group"
            case .descriptors: "arranging its descriptors"
            case .session: "starting its own session"
            case .directory: "changing to its working directory"
            case .keyring: "joining a new session keyring"
            case .limit: "setting a resource limit"
            case .capabilities: "dropping capabilities"
            case .noNewPrivileges: "setting PR_SET_NO_NEW_PRIVS"
            case .landlockRuleset: "creating the Landlock ruleset"
            case .landlockRule: "adding a Landlock rule"
            case .landlockRestrict: "restricting itself with Landlock"
            case .seccomp: "installing its seccomp filter"
            case .exec: "executing the server"
            case .signals: "resetting its signals"
            }
        }
    }

    /// One record the child wrote: a failure (which ended it) or a note.
    package struct Report: Hashable, Sendable {
        package var stage: Stage
        package var error: Errno
        /// The path, limit or rule it concerns, by its position in the request; `nil` for none.
        package var index: Int?
        package var isFatal: Bool
    }

    /// The child could not be started, or its set-up failed (it has been reaped).
    package struct Failure: Error, Sendable {
        /// The child's report, or `nil` when `clone`/`fork` itself failed (see ``error``).
        package var report: Report?
        package var error: Errno
    }

    /// A started child and the notes of what its box went without.
    package struct Started: Sendable {
        package var processIdentifier: Int32
        package var notes: [Report]
    }

    /// Starts the child and waits until it has executed the server (or failed).
    ///
    /// - Throws: ``Failure``: the report of the stage that failed (the child is reaped), or
    ///   the error of `clone` or `pipe`.
    package static func spawn(_ request: Request) throws(Failure) -> Started {
        let reportPipe: (read: Int32, write: Int32)
        do throws(Errno) {
            reportPipe = try POSIX.makePipe()
        } catch {
            throw Failure(report: nil, error: error)
        }
        defer { POSIX.close(reportPipe.read) }
        let memory = CMemory()
        let pid: Int32 = memory.withSpec(request, report: reportPipe.write) { spec in
            withUnsafePointer(to: &spec) { mcp_box_spawn($0) }
        }
        let spawnError = Errno.current("clone")
        POSIX.close(reportPipe.write)
        guard pid > 0 else { throw Failure(report: nil, error: spawnError) }
        // Linux: the child has executed the server or ended (CLONE_VFORK). Darwin: this read
        // waits until it has (the pipe is close-on-exec).
        var reports: [Report] = []
        var record = mcp_box_report()
        while true {
            let count = withUnsafeMutableBytes(of: &record) { buffer in (try? POSIX.read(reportPipe.read, into: buffer)) ?? 0 }
            guard count == MemoryLayout<mcp_box_report>.size else { break }
            guard let stage = Stage(rawValue: record.stage) else { continue }
            reports.append(
                Report(
                    stage: stage, error: Errno(code: record.error, operation: stage.description),
                    index: record.index >= 0 ? Int(record.index) : nil, isFatal: record.fatal != 0))
        }
        if let fatal = reports.first(where: \.isFatal) {
            // The child exits right after reporting: reap it, so that it is no zombie.
            _ = POSIX.waitUntilEnded(pid)
            _ = POSIX.reap(pid)
            throw Failure(report: fatal, error: fatal.error)
        }
        return Started(processIdentifier: pid, notes: reports)
    }

    /// C copies of a request's strings and arrays, freed with it (after the spawn: on Linux the
    /// child has executed by then; on Darwin it has its own copy).
    private final class CMemory {
        private var strings: [UnsafeMutablePointer<CChar>] = []
        private var buffers: [UnsafeMutableRawPointer] = []

        deinit {
            for string in strings { free(string) }
            for buffer in buffers { buffer.deallocate() }
        }

        func string(_ text: String) -> UnsafeMutablePointer<CChar>? {
            guard let copy = strdup(text) else { return nil }
            strings.append(copy)
            return copy
        }

        func array<T>(_ values: [T]) -> UnsafeMutablePointer<T>? {
            guard !values.isEmpty else { return nil }
            let buffer = UnsafeMutablePointer<T>.allocate(capacity: values.count)
            buffer.initialize(from: values, count: values.count)
            buffers.append(UnsafeMutableRawPointer(buffer))
            return buffer
        }

        /// A NULL-terminated vector of string copies.
        func vector(_ texts: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
            array(texts.map { string($0) } + [nil])
        }

        func withSpec<R>(_ request: Request, report: Int32, _ body: (inout mcp_box_spec) -> R) -> R {
            var spec = mcp_box_spec()
            spec.path = UnsafePointer(string(request.path))
            spec.argv = UnsafePointer(vector(request.arguments))
            spec.envp = UnsafePointer(vector(request.environment))
            spec.directory = request.directory.flatMap { UnsafePointer(string($0)) }
            spec.standard_input = request.standardInput
            spec.standard_output = request.standardOutput
            spec.standard_error = request.standardError ?? -1
            spec.report = report
            spec.namespaces = request.namespaces
            spec.uid_map = request.userMap.flatMap { UnsafePointer(string($0)) }
            spec.gid_map = request.groupMap.flatMap { UnsafePointer(string($0)) }
            spec.read_only_mounts = request.readOnlyMounts ? 1 : 0
            spec.writable_paths = constant(vector(request.writablePaths.map(\.path)))
            spec.writable_stays_read_only = UnsafePointer(array(request.writablePaths.map { Int32($0.staysReadOnly ? 1 : 0) }))
            spec.writable_count = request.writablePaths.count
            if let data = request.dataDirectory {
                spec.data_directory = UnsafePointer(string(data.path))
                spec.data_mount_options = UnsafePointer(string(data.options))
                spec.data_subdirectories = constant(vector(data.subdirectories))
                spec.data_subdirectory_count = data.subdirectories.count
            }
            spec.mount_proc = request.mountsProc ? 1 : 0
            spec.cgroup_procs = UnsafePointer(array(request.cgroupProcs))
            spec.cgroup_count = request.cgroupProcs.count
            spec.limit_resources = UnsafePointer(array(request.limits.map(\.resource)))
            spec.limit_soft = UnsafePointer(array(request.limits.map(\.soft)))
            spec.limit_hard = UnsafePointer(array(request.limits.map(\.hard)))
            spec.limit_count = request.limits.count
            spec.drop_privileges = request.dropsPrivileges ? 1 : 0
            spec.new_session_keyring = request.newSessionKeyring ? 1 : 0
            if let landlock = request.landlock {
                spec.landlock_attribute_size = landlock.size
                spec.landlock_handled_fs = landlock.fileSystem
                spec.landlock_handled_net = landlock.network
                spec.landlock_scoped = landlock.scoped
                spec.rule_paths = constant(vector(request.rules.map(\.path)))
                spec.rule_rights = UnsafePointer(array(request.rules.map(\.rights)))
                spec.rule_count = request.rules.count
            }
            if let filter = request.filter {
                spec.filter = UnsafePointer(array(filter))
                spec.filter_length = filter.count
            }
            return body(&spec)
        }

        private func constant(
            _ vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> UnsafePointer<UnsafePointer<CChar>?>? {
            guard let vector else { return nil }
            return UnsafeRawPointer(vector).assumingMemoryBound(to: UnsafePointer<CChar>?.self)
        }
    }
}

#endif
