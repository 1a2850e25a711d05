import MCP
import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// What the chat shows besides the answers: each tool call as it happens (name, arguments as
/// the server receives them, duration, size, error), each decline with its reason and the
/// option that would allow it, and each approval request; or, with `--json`, every event as
/// one JSON object a line on standard output.
///
/// Human lines go to standard error, so that standard output holds the answers alone.
struct ChatDisplay: Sendable {
    /// Where lines go: standard error for people, standard output for `--json`.
    let lines: any CommandOutput
    /// Whether tool calls are shown at all.
    let showsToolCalls: Bool
    /// One JSON object a line instead of text.
    let json: Bool
    /// Whether the chat was started with `--allow-writes` (a decline then names another way).
    let allowsWrites: Bool
    /// Whether a person is asked on the terminal (a decline then needs no other way).
    let asksPerson: Bool

    /// Shows one event of the provider.
    func show(_ event: AgentEvent) {
        if json {
            if let object = Self.json(event) { lines.write(Formatting.compactJSON(object) + "\n") }
            return
        }
        // An answer changed from what the model wrote is said, whether calls are shown or not.
        if case .turnEnded(let end) = event, !end.garbledCopies.isEmpty {
            let copies = end.garbledCopies.map { "\"\($0.written)\" as \"\($0.value)\"" }.joined(separator: ", ")
            lines.write("  ✎ the model garbled a tool's value; the answer shows \(copies), as the tool returned it\n")
        }
        guard showsToolCalls else { return }
        switch event {
        case .toolCallStarted(let start):
            lines.write("  → \(start.tool) \(Self.shortened(start.arguments, to: 300))\n")
        case .toolCallFinished(let finish):
            let duration = Formatting.duration(finish.duration)
            if finish.isError {
                lines.write("  ← \(finish.tool) failed after \(duration): \(finish.error ?? "an error the model reads")\n")
            } else {
                let cut = finish.wasCut ? ", cut to fit" : ""
                lines.write("  ← \(finish.tool): \(duration), \(finish.outputCharacters) characters\(cut)\n")
            }
        case .toolCallDeclined(let decline):
            lines.write("  ✗ \(decline.tool) \(decline.reason)\(hint(for: decline))\n")
        case .defence(let defence) where defence.kind == .repeated:
            lines.write("  ↺ \(defence.tool) \(defence.message)\n")
        default:
            break
        }
    }

    /// The option that would let a declined call run, in parentheses; empty when there is none.
    func hint(for decline: ToolCallDecline) -> String {
        if decline.reason.contains("has not approved tools that") && !allowsWrites {
            return asksPerson
                ? " (--allow-writes lets the model run such tools without asking)"
                : " (--allow-writes lets the model run such tools; on a terminal you are asked instead)"
        }
        if decline.reason.contains("a person must approve") && !asksPerson {
            return " (run chat on a terminal to approve such calls yourself)"
        }
        return ""
    }

    /// Shows an answer (or a failed turn's `error: …`), in JSON mode as an event.
    func showAnswer(_ answer: String, on output: any CommandOutput) {
        if json {
            let object: JSONValue =
                answer.hasPrefix("error: ")
                ? ["event": "error", "message": .string(String(answer.dropFirst(7)))] : ["event": "answer", "text": .string(answer)]
            lines.write(Formatting.compactJSON(object) + "\n")
        } else {
            output.write(answer + "\n")
        }
    }

    /// An event as JSON for `--json`; `nil` for events scripts do not get.
    static func json(_ event: AgentEvent) -> JSONValue? {
        switch event {
        case .toolCallStarted(let start):
            let arguments = (try? JSONValue(parsing: start.arguments)) ?? .string(start.arguments)
            return ["event": "toolCallStarted", "tool": .string(start.tool), "server": .string(start.server), "arguments": arguments]
        case .toolCallFinished(let finish):
            var object: JSONObject = [
                "event": "toolCallFinished", "tool": .string(finish.tool),
                "milliseconds": .double(Formatting.milliseconds(finish.duration)),
                "isError": .bool(finish.isError), "outputCharacters": .int(finish.outputCharacters), "wasCut": .bool(finish.wasCut),
            ]
            if let error = finish.error { object["error"] = .string(error) }
            return .object(object)
        case .toolCallDeclined(let decline):
            return ["event": "toolCallDeclined", "tool": .string(decline.tool), "reason": .string(decline.reason)]
        case .defence(let defence) where defence.kind == .repeated:
            return ["event": "toolCallRepeated", "tool": .string(defence.tool), "reason": .string(defence.message)]
        case .sessionBuilt(let build):
            return [
                "event": "sessionBuilt", "reasons": .array(build.reasons.map { .string($0.rawValue) }),
                "tools": .array(build.tools.map { .string($0) }), "tokens": .int(build.tokensAfter),
            ]
        case .contextChanged(let change):
            return [
                "event": "contextChanged", "reasons": .array(change.reasons.map { .string($0.rawValue) }),
                "tools": .array(change.tools.map { .string($0) }), "tokens": .int(change.tokens),
                "visibleEntries": .int(change.visibleEntries), "historyEntries": .int(change.historyEntries),
            ]
        case .toolListChanged(let server):
            return ["event": "toolListChanged", "server": .string(server)]
        case .turnEnded(let end) where !end.garbledCopies.isEmpty:
            let copies = end.garbledCopies.map { copy -> JSONValue in ["written": .string(copy.written), "value": .string(copy.value)] }
            return ["event": "answerRepaired", "garbledCopies": .array(copies)]
        default:
            return nil
        }
    }

    /// `text`, cut to `limit` characters with an ellipsis.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}

/// The lines a person types: prompts, and answers to approval requests, from one source.
actor TypedLines {
    private var iterator: AsyncThrowingStream<String, any Error>.AsyncIterator

    init(_ lines: AsyncThrowingStream<String, any Error>) {
        iterator = lines.makeAsyncIterator()
    }

    /// The next line; `nil` at the end of input. One reader at a time: the chat loop while it
    /// waits for a prompt, the approver while a turn runs.
    func next() async throws -> String? {
        var reading = iterator
        defer { iterator = reading }
        return try await reading.next(isolation: self)
    }

    /// The lines from here on, as the chat loop reads them.
    nonisolated var prompts: Prompts { Prompts(source: self) }

    struct Prompts: AsyncSequence, Sendable {
        typealias Element = String
        let source: TypedLines

        struct AsyncIterator: AsyncIteratorProtocol {
            let source: TypedLines
            mutating func next() async throws -> String? { try await source.next() }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }
    }
}

/// Asks the person at the terminal about a tool call: what it will do, exactly what it will
/// receive, why they are asked; allow once, for this conversation, or deny.
struct TerminalApprover: Sendable {
    let lines: TypedLines
    let prompt: any CommandOutput

    func decide(_ request: ToolCallRequest) async -> ToolApproval {
        var text = "\n  ? \(request.modelName)"
        if !request.server.isEmpty { text += " (server \(request.server))" }
        text += " wants to run"
        if !request.effects.isEmpty { text += "; it \(request.effects)" }
        if request.sendsArgumentsOut { text += "; what it is sent leaves this app" }
        text += ".\n    It will receive exactly: \(Formatting.compactJSON(.object(request.arguments)))\n"
        if let concern = request.concern {
            text += "    Why you are asked: \(concern)\n"
        }
        text += "    Allow once [y], for this conversation [a], or deny [N]? "
        prompt.write(text)
        let answer: String?
        do {
            answer = try await lines.next()
        } catch {
            answer = nil
        }
        guard let answer else {
            prompt.write("\n")
            return .deny(reason: "declined: nobody answered (the input ended)")
        }
        switch answer.filter({ !$0.isWhitespace }).lowercased() {
        case "y", "yes", "once":
            return .allowOnce
        case "a", "always", "all", "conversation":
            return .allowForSession
        default:
            return .deny(reason: "declined: the user said no")
        }
    }
}

/// The ends of turns as the display has shown them, for the chat loop to wait on: a turn's
/// answer is printed after its events.
actor TurnEnds {
    private var ends: [TurnEnd] = []
    private var waiter: CheckedContinuation<TurnEnd?, Never>?
    private var closed = false

    /// The display showed the end of a turn.
    func ended(_ end: TurnEnd) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: end)
        } else {
            ends.append(end)
        }
    }

    /// The events are over (the provider is gone).
    func close() {
        closed = true
        waiter?.resume(returning: nil)
        waiter = nil
    }

    /// The next turn's end once the display has shown it; `nil` when there will be none.
    func next() async -> TurnEnd? {
        if !ends.isEmpty { return ends.removeFirst() }
        if closed { return nil }
        return await withCheckedContinuation { waiter = $0 }
    }
}
