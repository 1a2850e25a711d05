// Threads: starting a dedicated one for blocking work, and telling which one runs.

// The C target brings `pthread_attr_t`'s zero initialiser into scope.
internal import CMCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension POSIX {
    /// The number of processors online (at least 1): how many threads Swift's shared executor
    /// runs at once.
    package static let processorCount: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// What the calling thread is batching writes for, in a thread-local variable (no lock):
    /// the identity of an output whose answers the code running now may leave queued, because
    /// whoever set the mark writes them once it is done. `nil` when nothing is batched.
    package static var batchMarker: UnsafeRawPointer? {
        get { mcp_batch_marker_get() }
        set { mcp_set_batch_marker(newValue) }
    }

    /// The identity of a thread, for asking "am I on that thread?".
    package struct ThreadID: Equatable, Sendable {
        #if canImport(Darwin)
        // Safety: a pthread_t is an opaque handle, only compared with pthread_equal.
        nonisolated(unsafe) private let thread: pthread_t
        #else
        private let thread: pthread_t
        #endif

        /// The calling thread.
        package static var current: ThreadID { ThreadID(thread: pthread_self()) }

        package static func == (lhs: ThreadID, rhs: ThreadID) -> Bool {
            pthread_equal(lhs.thread, rhs.thread) != 0
        }
    }

    /// Starts a dedicated, detached thread for blocking work.
    ///
    /// On Darwin the name shows in debuggers and crash reports.
    ///
    /// - Throws: ``Errno`` naming `pthread_create`'s error (for example `EAGAIN` when the
    ///   process or the system is out of threads); `body` is then never run.
    package static func startThread(named name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        let start = Unmanaged.passRetained(ThreadStart(name: name, body: body))
        let context = start.toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Darwin)
                let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
                #else
                guard let context else { return nil }
                let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
                #endif
                start.run()
                return nil
            }, context)
        guard status == 0 else {
            // The thread never ran, so it never took the context back.
            start.release()
            throw Errno(code: status, operation: "pthread_create")
        }
    }
}

/// What a new thread runs: its name and body, passed through `pthread_create`'s context pointer.
private final class ThreadStart {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    func run() {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #else
        // Glibc's module map does not export pthread_setname_np (a GNU extension): a C
        // wrapper names the thread (cut to 15 bytes), for `top -H`, `perf` and debuggers.
        mcp_name_current_thread(name)
        #endif
        body()
    }
}
