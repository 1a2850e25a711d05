#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

/// How a conversation's history is shortened to fit the model's context.
///
/// ``MCPSessionProvider`` asks its policy before a turn that would not fit (and once more,
/// harder, after the model reports an overflow), then builds a new session with the
/// instructions and the shortened history. A policy is given the entries after the
/// instructions, oldest first, and a way to count an entry's tokens; it returns the entries
/// to keep. Return fewer tokens than `limit` if you can: the provider rebuilds the session
/// either way, and a turn that still does not fit ends with the model's overflow error.
///
/// The default, ``TrimmingHistoryPolicy``, needs no model call. An app with a summariser
/// can write its own (replace old turns with a summary entry, say).
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
public protocol HistoryPolicy: Sendable {
    /// `entries` shortened so that their tokens are at most `limit`, as far as the policy can.
    ///
    /// - Parameters:
    ///   - entries: The conversation after the instructions, oldest first; a turn starts at
    ///     a prompt.
    ///   - limit: The tokens the history may take.
    ///   - tokens: The tokens of an entry (entries the policy makes are estimated).
    func shorten(_ entries: [Transcript.Entry], toFit limit: Int, tokens: (Transcript.Entry) -> Int) -> [Transcript.Entry]
}

/// Shortens history oldest first: tool outputs, then whole turns, keeping the latest turns.
///
/// 1. The tool outputs of turns before the latest ``keepsLatestTurns`` are replaced, oldest
///    first, by a line saying how much was removed (the calls stay, so the model still
///    knows which tools it used and why);
/// 2. then those older turns are removed whole, oldest first;
/// 3. only if the latest turns alone do not fit are they treated the same way, oldest first,
///    so that a turn can still be answered.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
public struct TrimmingHistoryPolicy: HistoryPolicy {
    /// The latest turns kept intact while the history can fit without touching them.
    public var keepsLatestTurns: Int

    public init(keepsLatestTurns: Int = 2) {
        self.keepsLatestTurns = max(0, keepsLatestTurns)
    }

    public func shorten(_ entries: [Transcript.Entry], toFit limit: Int, tokens: (Transcript.Entry) -> Int) -> [Transcript.Entry] {
        var turns = Self.turns(of: entries)
        var total = entries.reduce(0) { $0 + tokens($1) }
        var protected = min(keepsLatestTurns, turns.count)
        while total > limit {
            let older = turns.count - protected
            if let (turn, index) = Self.oldestOutput(in: turns[..<older]) {
                let entry = turns[turn][index]
                let replacement = Self.removedOutput(entry)
                total += tokens(replacement) - tokens(entry)
                turns[turn][index] = replacement
            } else if older > 0 {
                total -= turns[0].reduce(0) { $0 + tokens($1) }
                turns.removeFirst()
            } else if protected > 0 {
                protected -= 1
            } else {
                break
            }
        }
        return turns.flatMap { $0 }
    }

    /// `entries` split into turns, each starting at a prompt (entries before the first
    /// prompt form a turn of their own).
    static func turns(of entries: [Transcript.Entry]) -> [[Transcript.Entry]] {
        var turns: [[Transcript.Entry]] = []
        for entry in entries {
            if case .prompt = entry { turns.append([]) }
            if turns.isEmpty { turns.append([]) }
            turns[turns.count - 1].append(entry)
        }
        return turns
    }

    /// The position of the oldest tool output not yet removed.
    private static func oldestOutput(in turns: ArraySlice<[Transcript.Entry]>) -> (Int, Int)? {
        for (turnIndex, turn) in zip(turns.indices, turns) {
            for (index, entry) in turn.enumerated() {
                if case .toolOutput(let output) = entry, !isRemoved(output) { return (turnIndex, index) }
            }
        }
        return nil
    }

    static let removedMarker = "[output removed to fit the context"

    private static func isRemoved(_ output: Transcript.ToolOutput) -> Bool {
        guard output.segments.count == 1, case .text(let text) = output.segments[0] else { return false }
        return text.content.hasPrefix(removedMarker)
    }

    /// A tool output's entry with its content replaced by a note of what was removed.
    private static func removedOutput(_ entry: Transcript.Entry) -> Transcript.Entry {
        guard case .toolOutput(let output) = entry else { return entry }
        let characters = output.segments.reduce(0) { $0 + $1.description.count }
        let note = "\(removedMarker): \(characters) characters]"
        return .toolOutput(
            Transcript.ToolOutput(
                id: output.id, toolName: output.toolName, segments: [.text(Transcript.TextSegment(content: note))]))
    }
}
