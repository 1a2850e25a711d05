// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Assembles what an executor streams during one model request into transcript entries.
///
/// - An event with an `entryID` goes to the entry with that id, made by the first event that
///   names it; an event without one goes to the trailing entry when that entry is of the
///   event's kind (response, reasoning or tool calls), and to a new entry otherwise. So
///   consecutive events of one kind coalesce, and interleaving kinds without ids splits entries.
/// - Text operations address a segment by id, or the current segment (the entry's last one, when
///   it is text) when the id is `nil` or empty; an operation on a segment that does not exist
///   makes it.
/// - Tool-call events route by call id: the first opens the call (with its tool name), later
///   ones append argument text; `removeToolCall` drops a call. The arguments of each call are
///   parsed as JSON when the request ends.
/// - Usage updates replace the request's totals wholesale; text and argument deltas credit
///   their `tokenCount` to the output (reasoning text to the reasoning tokens too).
/// - Metadata updates replace the entry's (or call's) metadata.
struct EntryAssembler {
    enum Kind: Equatable {
        case response, reasoning, toolCalls
    }

    struct CallDraft {
        var id: String
        var name: String
        var arguments = ""
        var metadata: [String: GeneratedContent] = [:]
    }

    struct Draft {
        var kind: Kind
        var id: String
        var segments: [Transcript.Segment] = []
        var metadata: [String: GeneratedContent] = [:]
        var signature: Data?
        var calls: [CallDraft] = []
    }

    private(set) var drafts: [Draft] = []
    private(set) var usage = UsageCore()

    /// Applies one event.
    mutating func apply(_ event: ChannelEvent) {
        switch event.payload {
        case .response(let action):
            let index = draft(.response, entryID: event.entryID)
            switch action {
            case .text(let operation):
                Self.apply(operation, to: &drafts[index].segments)
                usage.outputTokens += operation.tokenCount
            case .addAttachment(let segment):
                drafts[index].segments.append(.attachment(segment))
            case .removeAttachment(let id):
                drafts[index].segments.removeAll { segment in
                    if case .attachment(let attachment) = segment { attachment.id == id } else { false }
                }
            case .metadata(let values):
                drafts[index].metadata = values
            case .usage(let totals):
                usage = totals
            }
        case .reasoning(let action):
            let index = draft(.reasoning, entryID: event.entryID)
            switch action {
            case .text(let operation):
                Self.apply(operation, to: &drafts[index].segments)
                usage.outputTokens += operation.tokenCount
                usage.reasoningTokens += operation.tokenCount
            case .signature(let signature, let tokenCount):
                drafts[index].signature = signature
                usage.outputTokens += tokenCount
                usage.reasoningTokens += tokenCount
            case .metadata(let values):
                drafts[index].metadata = values
            case .usage(let totals):
                usage = totals
            }
        case .toolCalls(let action):
            let index = draft(.toolCalls, entryID: event.entryID)
            switch action {
            case .call(let id, let name, let callAction):
                let call: Int
                if let existing = drafts[index].calls.firstIndex(where: { $0.id == id }) {
                    call = existing
                } else {
                    drafts[index].calls.append(CallDraft(id: id, name: name))
                    call = drafts[index].calls.count - 1
                }
                switch callAction {
                case .appendArguments(let text, let tokenCount):
                    drafts[index].calls[call].arguments += text
                    usage.outputTokens += tokenCount
                case .metadata(let values):
                    drafts[index].calls[call].metadata = values
                }
            case .remove(let id):
                drafts[index].calls.removeAll { $0.id == id }
            case .metadata(let values):
                drafts[index].metadata = values
            case .usage(let totals):
                usage = totals
            }
        }
    }

    /// The index of the draft an event of `kind` addresses, made if needed.
    private mutating func draft(_ kind: Kind, entryID: String?) -> Int {
        if let entryID, !entryID.isEmpty {
            if let index = drafts.firstIndex(where: { $0.id == entryID && $0.kind == kind }) { return index }
            drafts.append(Draft(kind: kind, id: entryID))
            return drafts.count - 1
        }
        if let last = drafts.indices.last, drafts[last].kind == kind { return last }
        drafts.append(Draft(kind: kind, id: UUID().uuidString))
        return drafts.count - 1
    }

    private static func apply(_ operation: TextOperation, to segments: inout [Transcript.Segment]) {
        let (text, segmentID, replaces): (String, String?, Bool) =
            switch operation {
            case .append(let text, let id, _): (text, id, false)
            case .replace(let text, let id, _): (text, id, true)
            }
        let target: Int?
        if let segmentID, !segmentID.isEmpty {
            target = segments.firstIndex { segment in
                if case .text(let existing) = segment { existing.id == segmentID } else { false }
            }
        } else if case .text? = segments.last {
            target = segments.count - 1
        } else {
            target = nil
        }
        guard let target, case .text(var segment) = segments[target] else {
            let id = segmentID.flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString
            segments.append(.text(Transcript.TextSegment(id: id, content: text)))
            return
        }
        segment.content = replaces ? text : segment.content + text
        segments[target] = .text(segment)
    }

    // MARK: Reading

    /// The text of the trailing response draft, if the trailing draft is a response.
    var trailingResponseText: String? {
        guard let last = drafts.last, last.kind == .response else { return nil }
        return Self.text(of: last.segments)
    }

    /// The text of an answer's segments: its text segments, in order.
    static func text(of segments: [Transcript.Segment]) -> String {
        segments.reduce(into: "") { text, segment in
            if case .text(let part) = segment { text += part.content }
        }
    }

    /// A tool call whose arguments are not a complete JSON value.
    struct UnreadableArguments: Error {
        var call: CallDraft
        var reason: String
    }

    /// The entries of the request, in order. Tool-call arguments are parsed here: an unreadable
    /// one throws, unless `lenient`, which leaves the call out (what a failed request keeps).
    /// Entries with nothing in them are left out, except a response (an empty answer is an
    /// answer).
    func entries(lenient: Bool) throws(UnreadableArguments) -> [Transcript.Entry] {
        var entries: [Transcript.Entry] = []
        for draft in drafts {
            switch draft.kind {
            case .response:
                var response = Transcript.Response(id: draft.id, assetIDs: [], segments: draft.segments)
                response.metadata = draft.metadata
                entries.append(.response(response))
            case .reasoning:
                guard !draft.segments.isEmpty || draft.signature != nil else { continue }
                var reasoning = Transcript.Reasoning(id: draft.id, segments: draft.segments, signature: draft.signature)
                reasoning.metadata = draft.metadata
                entries.append(.reasoning(reasoning))
            case .toolCalls:
                var calls: [Transcript.ToolCall] = []
                for call in draft.calls {
                    do throws(UnreadableArguments) {
                        var parsed = Transcript.ToolCall(id: call.id, toolName: call.name, arguments: try Self.arguments(of: call))
                        parsed.storedMetadata = call.metadata
                        calls.append(parsed)
                    } catch  where lenient {
                        continue
                    }
                }
                guard !calls.isEmpty else { continue }
                entries.append(.toolCalls(Transcript.ToolCalls(id: draft.id, calls)))
            }
        }
        return entries
    }

    private static func arguments(of call: CallDraft) throws(UnreadableArguments) -> GeneratedContent {
        if call.arguments.allSatisfy(\.isWhitespace) { return GeneratedContent(properties: [:]) }
        let parsed: GeneratedContent
        do {
            parsed = try GeneratedContent(json: call.arguments)
        } catch {
            throw UnreadableArguments(
                call: call, reason: "The arguments the model generated for tool '\(call.name)' are not JSON: \(call.arguments)")
        }
        guard parsed.isComplete else {
            throw UnreadableArguments(
                call: call, reason: "The arguments the model generated for tool '\(call.name)' are incomplete JSON: \(call.arguments)")
        }
        return parsed
    }
}
#endif
