// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
public import Observation

/// A container for a session's property values: its history and the custom properties of
/// ``SessionPropertyKey``s.
///
/// Read it from the app as `session.properties`, or from dynamic instructions, profiles, their
/// modifiers and tools with `@SessionProperty`. Writes to ``history`` from a profile callback
/// change the session's transcript; from the app they are writes to `session.transcript` (and
/// fail a response in progress with `transcriptMutationWhileResponding`); from a body or a tool
/// they are ignored, as the history is read-only there. Custom values are the session's own,
/// kept for its lifetime; reads and writes through this object are observable (Observation).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public final class SessionPropertyValues: Sendable, Observable {
    let store: PropertyStore
    private let registrar = ObservationRegistrar()

    private init(store: PropertyStore) {
        self.store = store
    }

    /// The values of the session that owns `store` (one object per session).
    static func values(of store: PropertyStore) -> SessionPropertyValues {
        let object = store.object { SessionPropertyValues(store: store) }
        return (object as? SessionPropertyValues) ?? SessionPropertyValues(store: store)
    }

    /// The values of the session whose code is running, or values that belong to no session
    /// (defaults, and writes that go nowhere) outside any session.
    static var current: SessionPropertyValues {
        values(of: SessionAccess.current?.store ?? PropertyStore())
    }

    /// A custom property's value: what was set, or the key's default.
    public subscript<K>(key: K.Type) -> K.Value where K: SessionPropertyKey {
        get {
            registrar.access(self, keyPath: \.customValuesVersion)
            return (store.value(for: ObjectIdentifier(key)) as? K.Value) ?? K.defaultValue
        }
        set {
            registrar.withMutation(of: self, keyPath: \.customValuesVersion) {
                store.setValue(newValue, for: ObjectIdentifier(key))
            }
        }
    }

    /// The session's history: its transcript's entries after the leading instructions entry.
    public final var history: Transcript.HistoryView {
        get {
            registrar.access(self, keyPath: \.history)
            return Transcript.HistoryView(entries: store.history)
        }
        set {
            registrar.withMutation(of: self, keyPath: \.history) {
                store.setHistory(newValue.entries)
            }
        }
    }

    /// How many custom values were written (what observers of custom values track).
    var customValuesVersion: Int { store.version }
}
#endif
