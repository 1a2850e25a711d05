// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// 27's attachments: a segment that holds an image (27.2 adds data attachments).

extension Transcript {
    /// A segment that holds an attachment, with an optional label.
    public struct AttachmentSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The segment's identity.
        public var id: String
        /// What is attached.
        public var content: Transcript.Attachment
        /// A short description of the attachment, for the model and for people.
        public var label: String?

        /// An attachment segment.
        public init(id: String = UUID().uuidString, content: Transcript.Attachment, label: String? = nil) {
            self.id = id
            self.content = content
            self.label = label
        }

        public var description: String { "Attachment: \(label ?? content.description)" }
    }

    /// What an attachment segment holds.
    public enum Attachment: Sendable, Equatable, CustomStringConvertible {
        /// An image.
        case image(Transcript.ImageAttachment)

        public var description: String {
            switch self {
            case .image(let image): "image (\(image.contentType), \(image.data.count) bytes)"
            }
        }
    }

    /// An image in a transcript.
    ///
    /// Portable: the reference gives none of this type's members; the portable one holds the
    /// image's encoded bytes and their media type (such as `image/png`), which is what a
    /// provider sends on.
    public struct ImageAttachment: Sendable, Equatable {
        /// The encoded image.
        public var data: Data
        /// The media type of `data`.
        public var contentType: String

        /// An image of encoded bytes of the given media type.
        public init(data: Data, contentType: String) {
            self.data = data
            self.contentType = contentType
        }
    }
}
#endif
