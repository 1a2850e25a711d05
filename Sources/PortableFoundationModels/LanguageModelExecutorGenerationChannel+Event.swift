// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@available(iOS 27.0, macOS 27.0, visionOS 27.0, watchOS 27.0, macCatalyst 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelExecutorGenerationChannel {
    /// One thing an executor streams: a response, reasoning or tool-call event for one
    /// transcript entry.
    ///
    /// Construct-only: build an event with ``response(entryID:action:)``,
    /// ``reasoning(entryID:action:)`` or ``toolCalls(entryID:action:)``. There is no public way
    /// to look inside a sent event; the session assembles events into transcript entries.
    public struct Event: Sendable {
        let core: ChannelEvent

        init(core: ChannelEvent) {
            self.core = core
        }

        /// A response event: text, segment replacements, attachments, metadata or usage.
        ///
        /// `entryID` names the response entry the event changes; `nil` lets the session coalesce
        /// consecutive response events into the trailing response entry.
        public static func response(
            entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.Response.Action
        ) -> LanguageModelExecutorGenerationChannel.Event {
            Event(core: ChannelEvent(entryID: entryID, payload: .response(action.core)))
        }

        /// A reasoning event: reasoning text, segment replacements, the signature, metadata or
        /// usage. `nil` coalesces consecutive reasoning events into the trailing reasoning entry.
        public static func reasoning(
            entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.Reasoning.Action
        ) -> LanguageModelExecutorGenerationChannel.Event {
            Event(core: ChannelEvent(entryID: entryID, payload: .reasoning(action.core)))
        }

        /// A tool-calls event: a call's arguments (a fragment at a time), a retracted call,
        /// metadata or usage. `nil` coalesces consecutive tool-call events into the trailing
        /// tool-calls entry.
        public static func toolCalls(
            entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.ToolCalls.Action
        ) -> LanguageModelExecutorGenerationChannel.Event {
            Event(core: ChannelEvent(entryID: entryID, payload: .toolCalls(action.core)))
        }
    }
}

// MARK: - The session's record of an event (no availability: the session's core reads it)

/// What one channel event does, as the session's assembler reads it.
struct ChannelEvent: Sendable {
    enum Payload: Sendable {
        case response(ResponseActionCore)
        case reasoning(ReasoningActionCore)
        case toolCalls(ToolCallsActionCore)
    }

    /// The entry the event addresses; `nil` for the trailing entry of its kind.
    var entryID: String?
    var payload: Payload
    /// Whether the session shows a stream reader the answer after this event. The 26 backend
    /// adapter sends an answer it already reported piece by piece (or that its backend gave at
    /// once) with `false`, so a stream yields exactly the snapshots the backend reported.
    var publishesSnapshot = true
}

/// A change to a text segment of a response or reasoning entry.
enum TextOperation: Sendable {
    /// Adds text to the segment (the current one when `segmentID` is `nil` or empty).
    case append(String, segmentID: String?, tokenCount: Int)
    /// Replaces the segment's text (the current one when `segmentID` is `nil` or empty).
    case replace(String, segmentID: String?, tokenCount: Int)

    var tokenCount: Int {
        switch self {
        case .append(_, _, let count), .replace(_, _, let count): count
        }
    }
}

enum ResponseActionCore: Sendable {
    case text(TextOperation)
    case addAttachment(Transcript.AttachmentSegment)
    case removeAttachment(id: String)
    case metadata([String: GeneratedContent])
    case usage(UsageCore)
}

enum ReasoningActionCore: Sendable {
    case text(TextOperation)
    case signature(Data, tokenCount: Int)
    case metadata([String: GeneratedContent])
    case usage(UsageCore)
}

enum ToolCallActionCore: Sendable {
    case appendArguments(String, tokenCount: Int)
    case metadata([String: GeneratedContent])
}

enum ToolCallsActionCore: Sendable {
    case call(id: String, name: String, ToolCallActionCore)
    case remove(id: String)
    case metadata([String: GeneratedContent])
    case usage(UsageCore)
}

/// Metadata as stored: each value converted to `GeneratedContent` when the action is made.
func storedMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> [String: GeneratedContent] {
    values.mapValues { $0.generatedContent }
}
#endif
