// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// A session's executors: one per distinct executor type and configuration, made the first time
/// a request needs it and released with the session.
final class ExecutorStore: Sendable {
    private let executors = LockedValue<[ExecutorKey: any Sendable]>([:])

    /// The executor for `model`'s configuration, made now if the session has none yet.
    ///
    /// Made with the lock held, so two requests can never make two executors for one key (a
    /// session serializes its responses, but a prewarm may overlap one).
    func executor(for model: any ModelDriver) throws -> any Sendable {
        let key = model.executorKey
        return try executors.withLock { executors in
            if let existing = executors[key] { return existing }
            let made = try model.makeExecutor()
            executors[key] = made
            return made
        }
    }

    /// How many executors the session has made.
    var count: Int { executors.withLock { $0.count } }
}
#endif
