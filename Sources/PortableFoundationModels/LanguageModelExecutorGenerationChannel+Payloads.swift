// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelExecutorGenerationChannel {
    /// A model-generated response event: text, segment replacements, attachments, metadata or
    /// usage, for the response entry named `entryID`.
    public struct Response: Sendable {
        /// The entry the event addresses; `nil` for the trailing response entry.
        public var entryID: String?
        /// What the event does to the entry.
        public var action: LanguageModelExecutorGenerationChannel.Response.Action

        /// What a response event does: an enum-like struct built with a leading-dot factory.
        public struct Action: Sendable {
            let core: ResponseActionCore

            /// Appends `text` to the segment named `segmentID` (`nil` or empty: the entry's
            /// current text segment, or a new one when the entry ends with an attachment or has
            /// no segment). `tokenCount` is credited to the response's output tokens until a
            /// usage update replaces the totals.
            public static func appendText(
                _ text: String, segmentID: String? = nil, tokenCount: Int
            ) -> LanguageModelExecutorGenerationChannel.Response.Action {
                Action(core: .text(.append(text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Replaces the text of the segment named `segmentID` (`nil` or empty: the current
            /// text segment) with `text`; creates the segment when there is none.
            public static func replaceTextSegment(
                _ text: String, segmentID: String? = nil, tokenCount: Int
            ) -> LanguageModelExecutorGenerationChannel.Response.Action {
                Action(core: .text(.replace(text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Adds an attachment segment to the response.
            public static func addAttachmentSegment(
                _ segment: Transcript.AttachmentSegment
            ) -> LanguageModelExecutorGenerationChannel.Response.Action {
                Action(core: .addAttachment(segment))
            }

            /// Removes the attachment segment with this id.
            public static func removeAttachmentSegment(id: String) -> LanguageModelExecutorGenerationChannel.Response.Action {
                Action(core: .removeAttachment(id: id))
            }

            /// Replaces the entry's metadata with `values` (send every key each time).
            public static func updateMetadata(
                _ values: [String: any ConvertibleToGeneratedContent]
            ) -> LanguageModelExecutorGenerationChannel.Response.Action {
                Action(core: .metadata(storedMetadata(values)))
            }

            /// Reports the request's cumulative token totals; they replace the previous totals
            /// wholesale.
            public static func updateUsage(
                input: LanguageModelExecutorGenerationChannel.Usage.Input, output: LanguageModelExecutorGenerationChannel.Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> LanguageModelExecutorGenerationChannel.Response.Action {
                Action(core: .usage(UsageCore(input: input, output: output, metadata: storedMetadata(metadata))))
            }
        }
    }

    /// A reasoning event: reasoning text, segment replacements, the signature, metadata or
    /// usage, for the reasoning entry named `entryID`. A peer of ``Response`` and ``ToolCalls``.
    public struct Reasoning: Sendable {
        /// The entry the event addresses; `nil` for the trailing reasoning entry.
        public var entryID: String?
        /// What the event does to the entry.
        public var action: LanguageModelExecutorGenerationChannel.Reasoning.Action

        /// What a reasoning event does: an enum-like struct built with a leading-dot factory.
        public struct Action: Sendable {
            let core: ReasoningActionCore

            /// Appends reasoning text to a segment (as ``Response/Action/appendText(_:segmentID:tokenCount:)``);
            /// `tokenCount` is credited to the output and reasoning tokens.
            public static func appendText(
                _ text: String, segmentID: String? = nil, tokenCount: Int
            ) -> LanguageModelExecutorGenerationChannel.Reasoning.Action {
                Action(core: .text(.append(text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Replaces the text of a reasoning segment.
            public static func replaceTextSegment(
                _ text: String, segmentID: String? = nil, tokenCount: Int
            ) -> LanguageModelExecutorGenerationChannel.Reasoning.Action {
                Action(core: .text(.replace(text, segmentID: segmentID, tokenCount: tokenCount)))
            }

            /// Sets the reasoning entry's signature (the provider's proof of its reasoning).
            public static func updateSignature(
                _ signature: Data, tokenCount: Int
            ) -> LanguageModelExecutorGenerationChannel.Reasoning.Action {
                Action(core: .signature(signature, tokenCount: tokenCount))
            }

            /// Replaces the entry's metadata with `values`.
            public static func updateMetadata(
                _ values: [String: any ConvertibleToGeneratedContent]
            ) -> LanguageModelExecutorGenerationChannel.Reasoning.Action {
                Action(core: .metadata(storedMetadata(values)))
            }

            /// Reports the request's cumulative token totals; they replace the previous totals.
            public static func updateUsage(
                input: LanguageModelExecutorGenerationChannel.Usage.Input, output: LanguageModelExecutorGenerationChannel.Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> LanguageModelExecutorGenerationChannel.Reasoning.Action {
                Action(core: .usage(UsageCore(input: input, output: output, metadata: storedMetadata(metadata))))
            }
        }
    }

    /// A tool-calls event. Events for one call route through ``Action/toolCall(id:name:action:)``;
    /// ``Action/removeToolCall(id:)`` drops a call the model retracted.
    public struct ToolCalls: Sendable {
        /// The entry the event addresses; `nil` for the trailing tool-calls entry.
        public var entryID: String?
        /// What the event does to the entry.
        public var action: LanguageModelExecutorGenerationChannel.ToolCalls.Action

        /// What a tool-calls event does: an enum-like struct built with a leading-dot factory.
        public struct Action: Sendable {
            let core: ToolCallsActionCore

            /// An event for the call `id` of the tool `name`: the first event for an id opens the
            /// call, later ones append arguments or set its metadata. Calls may interleave.
            public static func toolCall(
                id: String, name: String, action: LanguageModelExecutorGenerationChannel.ToolCalls.ToolCall.Action
            ) -> LanguageModelExecutorGenerationChannel.ToolCalls.Action {
                Action(core: .call(id: id, name: name, action.core))
            }

            /// Drops the call `id`, which the model retracted.
            public static func removeToolCall(id: String) -> LanguageModelExecutorGenerationChannel.ToolCalls.Action {
                Action(core: .remove(id: id))
            }

            /// Replaces the tool-calls entry's metadata with `values`.
            public static func updateMetadata(
                _ values: [String: any ConvertibleToGeneratedContent]
            ) -> LanguageModelExecutorGenerationChannel.ToolCalls.Action {
                Action(core: .metadata(storedMetadata(values)))
            }

            /// Reports the request's cumulative token totals; they replace the previous totals.
            public static func updateUsage(
                input: LanguageModelExecutorGenerationChannel.Usage.Input, output: LanguageModelExecutorGenerationChannel.Usage.Output,
                metadata: [String: any ConvertibleToGeneratedContent] = [:]
            ) -> LanguageModelExecutorGenerationChannel.ToolCalls.Action {
                Action(core: .usage(UsageCore(input: input, output: output, metadata: storedMetadata(metadata))))
            }
        }

        /// A per-tool-call event payload: `id` and `name` route the event to one call of the
        /// tool-calls entry.
        public struct ToolCall: Sendable {
            /// The call's id; the tool's output carries the same id.
            public var id: String
            /// The name of the tool called.
            public var name: String
            /// What the event does to the call.
            public var action: LanguageModelExecutorGenerationChannel.ToolCalls.ToolCall.Action

            /// What a tool-call event does: an enum-like struct built with a leading-dot factory.
            public struct Action: Sendable {
                let core: ToolCallActionCore

                /// Appends argument text (a fragment of the arguments' JSON). The session
                /// accumulates the fragments per call and parses the JSON when the request ends.
                public static func appendArguments(
                    _ content: String, tokenCount: Int
                ) -> LanguageModelExecutorGenerationChannel.ToolCalls.ToolCall.Action {
                    Action(core: .appendArguments(content, tokenCount: tokenCount))
                }

                /// Replaces the call's metadata with `values`.
                public static func updateMetadata(
                    _ values: [String: any ConvertibleToGeneratedContent]
                ) -> LanguageModelExecutorGenerationChannel.ToolCalls.ToolCall.Action {
                    Action(core: .metadata(storedMetadata(values)))
                }
            }

            /// A fragment of a call's arguments. The first event for a given id opens the call
            /// (with `name` from the enclosing ``ToolCall``); later events append argument text.
            public struct ArgumentsFragment: Sendable {
                /// The argument text.
                public var content: String
                /// The tokens the fragment took.
                public var tokenCount: Int
            }
        }
    }
}
#endif
