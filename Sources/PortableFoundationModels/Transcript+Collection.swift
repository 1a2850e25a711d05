// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// 27: a transcript is mutable, entry by entry and range by range.

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Transcript: MutableCollection, RangeReplaceableCollection {
    /// An empty transcript.
    public init() {
        self.init(entries: [])
    }

    /// Replaces the entries in `subrange` with `newElements`.
    public mutating func replaceSubrange<C>(_ subrange: Range<Int>, with newElements: consuming C)
    where C: Collection, C.Element == Transcript.Entry {
        entries.replaceSubrange(subrange, with: newElements)
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Transcript {
    /// The transcript entries excluding the leading instructions entry, if present.
    ///
    /// Setting it replaces those entries and keeps the instructions entry.
    public var history: Transcript.HistoryView {
        get { HistoryView(entries: historyEntries) }
        set { historyEntries = newValue.entries }
    }
}

extension Transcript {
    /// The entries after the leading instructions entry (`history`, without availability).
    var historyEntries: [Transcript.Entry] {
        get { Array(entries[historyStart...]) }
        set { entries.replaceSubrange(historyStart..., with: newValue) }
    }

    /// The index of the first entry after the leading instructions entry.
    var historyStart: Int {
        if case .instructions? = entries.first { return 1 }
        return 0
    }

    /// The leading instructions entry, if there is one.
    var leadingInstructions: Transcript.Instructions? {
        if case .instructions(let instructions)? = entries.first { return instructions }
        return nil
    }
}
#endif
