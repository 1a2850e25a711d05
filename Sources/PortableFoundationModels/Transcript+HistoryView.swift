// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Transcript {
    /// A mutable view into the conversational entries of a transcript: every entry after the
    /// leading instructions entry.
    ///
    /// Its indices count from 0, whatever the transcript's instructions. Read it with
    /// `transcript.history` and write it back with `transcript.history = …` (or mutate it in place
    /// through the property); in a session, `@SessionProperty(\.history)` reads and writes the
    /// session's history.
    public struct HistoryView: MutableCollection, RandomAccessCollection, RangeReplaceableCollection, Sendable,
        ExpressibleByArrayLiteral, Equatable
    {
        var entries: [Transcript.Entry]

        init(entries: some Sequence<Transcript.Entry>) {
            self.entries = Array(entries)
        }

        /// An empty history.
        public init() {
            entries = []
        }

        /// A history of the given entries.
        public init(arrayLiteral elements: Transcript.Entry...) {
            entries = elements
        }

        public typealias Index = Int
        /// The first entry's position: 0.
        public var startIndex: Int { entries.startIndex }
        /// The position after the last entry.
        public var endIndex: Int { entries.endIndex }

        /// The entry at `position`.
        public subscript(position: Int) -> Transcript.Entry {
            get { entries[position] }
            set { entries[position] = newValue }
        }

        /// Appends an entry.
        public mutating func append(_ newElement: Transcript.Entry) {
            entries.append(newElement)
        }

        /// Appends entries.
        public mutating func append(contentsOf newElements: some Sequence<Transcript.Entry>) {
            entries.append(contentsOf: newElements)
        }

        /// Replaces the entries in `subrange` with `newElements`.
        public mutating func replaceSubrange<C>(_ subrange: Range<Int>, with newElements: C)
        where C: Collection, C.Element == Transcript.Entry {
            entries.replaceSubrange(subrange, with: newElements)
        }
    }
}
#endif
