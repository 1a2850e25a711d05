// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// A session's managed property values, without availability: the custom values of
/// `SessionPropertyKey`s, and the way to the session's history.
///
/// `@SessionProperty` finds the store of the session whose code is running through
/// ``SessionAccess/current``, a task-local value the session binds while it evaluates bodies
/// (``SessionAccess/Role/body``), runs tools (``SessionAccess/Role/tool``) and runs profile
/// callbacks (``SessionAccess/Role/callback``).
final class PropertyStore: Sendable {
    private struct State {
        var values: [ObjectIdentifier: Any] = [:]
        /// Counts writes, for observers of custom values.
        var version = 0
        /// The session's `SessionPropertyValues` (created on first use by the 27 API).
        var valuesObject: AnyObject?
        /// The session whose history the store reads and writes.
        weak var session: LanguageModelSession?
    }

    private let state = LockedValue(State())

    /// Counts writes, for observers of custom values.
    var version: Int { state.withLock { $0.version } }

    /// The session whose history the store reads and writes (set once, by the session).
    var session: LanguageModelSession? {
        get { state.withLock { $0.session } }
        set { state.withLock { $0.session = newValue } }
    }

    /// The value stored for a key's type, or `nil`.
    func value(for key: ObjectIdentifier) -> Any? {
        state.withLock { $0.values[key] }
    }

    func setValue(_ value: Any, for key: ObjectIdentifier) {
        state.withLock { state in
            state.values[key] = value
            state.version += 1
        }
    }

    /// The object made by `make` the first time, and the same object afterwards.
    func object(orMake make: () -> AnyObject) -> AnyObject {
        state.withLock { state in
            if let valuesObject = state.valuesObject { return valuesObject }
            let made = make()
            state.valuesObject = made
            return made
        }
    }

    /// The history of the session: its transcript after the leading instructions entry.
    var history: [Transcript.Entry] {
        session?.transcript.historyEntries ?? []
    }

    /// Writes the session's history, as the current code may: a profile callback's write is the
    /// session's own; a write from a body or a tool is ignored (they read the history only);
    /// any other write is the app's, as `session.transcript` is.
    func setHistory(_ history: [Transcript.Entry]) {
        guard let session else { return }
        let access = SessionAccess.current
        switch access?.store === self ? access?.role : nil {
        case .callback?:
            session.updateTranscript(byResponse: true) { $0.historyEntries = history }
        case .body?, .tool?:
            return
        case nil:
            session.updateTranscript(byResponse: false) { $0.historyEntries = history }
        }
    }
}

/// Which session's code runs in the current task, and what kind of code it is.
struct SessionAccess: Sendable {
    enum Role: Sendable {
        /// A dynamic instructions or profile body (reads only).
        case body
        /// A tool's `call(arguments:)` (reads only).
        case tool
        /// A profile callback (`onPrompt`, `onResponse`, …), which may write the history.
        case callback
    }

    var store: PropertyStore
    var role: Role

    @TaskLocal static var current: SessionAccess?
}
#endif
