// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Transcript {
    /// The model's reasoning before it answered: text segments, the provider's signature, and
    /// metadata.
    ///
    /// A session records one from an executor's reasoning events. Portable: it carries no
    /// availability, as `Transcript.Entry.reasoning` (see there).
    public struct Reasoning: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The entry's identity.
        public var id: String
        /// The reasoning's text.
        public var segments: [Transcript.Segment]
        /// The provider's signature of the reasoning, to send back with later requests.
        public var signature: Data?
        /// What the provider said about the reasoning.
        public var metadata: [String: GeneratedContent]

        /// Reasoning with the given segments. (The release's type of `metadata` here is not
        /// documented; like every other 27 metadata input, it takes values convertible to
        /// generated content.)
        public init(
            id: String = UUID().uuidString, metadata: [String: any ConvertibleToGeneratedContent] = [:],
            segments: [Transcript.Segment], signature: Data? = nil
        ) {
            self.id = id
            self.metadata = storedMetadata(metadata)
            self.segments = segments
            self.signature = signature
        }

        public var description: String { "Reasoning: " + segments.map(\.description).joined(separator: "\n") }
    }
}
#endif
