/// An answer shown on a terminal as the model writes it, rewritten in place when the model's
/// answer is replaced.
///
/// A snapshot that extends what is shown adds its new text. One that does not (a loop cut and
/// asked again, the frame's words or a garbled value removed, a turn that failed after it
/// began to answer) replaces the shown text: the cursor goes back to where the answer began
/// and the screen is cleared from there (`CR`, `ESC [ n A`, `ESC [ J`), when that can be done
/// exactly; otherwise the new text waits for the end of the turn, and the whole answer is then
/// written on a line of its own, as before.
///
/// Erasing is exact only when the terminal's width is known, nothing else was written to the
/// terminal since the answer began (a tool call's line, a question), every character of the
/// shown text takes one column (printable ASCII, or a line break) and it takes at most
/// ``maximumRows`` rows (which are then all on the screen).
struct StreamedAnswer: Sendable {
    /// The most rows erased: more could have scrolled off a small screen.
    static let maximumRows = 20

    /// The answer's text on the screen.
    private(set) var shown = ""
    /// The writes to the terminal's other stream when this answer began to be shown.
    private var othersAtStart: Int?

    /// What to write for the answer so far, `snapshot`; `others` is the count of writes made to
    /// the terminal's other stream so far. `columns` is asked only when the shown text is to be
    /// erased (it can be a system call, and snapshots come a token at a time).
    mutating func show(_ snapshot: String, columns: @autoclosure () -> Int?, others: Int) -> String {
        if snapshot.hasPrefix(shown) {
            let added = String(snapshot.dropFirst(shown.count))
            if shown.isEmpty, !added.isEmpty { othersAtStart = others }
            shown = snapshot
            return added
        }
        guard let erase = erasing(columns: columns, others: others) else { return "" }
        shown = snapshot
        if snapshot.isEmpty { othersAtStart = nil }
        return erase + snapshot
    }

    /// What to write for the whole `answer` (or a failed turn's `error: …`) at the end of the
    /// turn, with its line break; the state is then ready for the next answer.
    mutating func finish(_ answer: String, columns: @autoclosure () -> Int?, others: Int) -> String {
        defer {
            shown = ""
            othersAtStart = nil
        }
        if answer.hasPrefix(shown), !shown.isEmpty {
            return String(answer.dropFirst(shown.count)) + "\n"
        }
        if shown.isEmpty { return answer + "\n" }
        if let erase = erasing(columns: columns, others: others) { return erase + answer + "\n" }
        return "\n" + answer + "\n"
    }

    /// The sequence that erases the shown text, when it can be erased exactly.
    private func erasing(columns: () -> Int?, others: Int) -> String? {
        guard othersAtStart == others, let columns = columns() else { return nil }
        return Self.erasing(shown, columns: columns)
    }

    /// The sequence that moves the cursor from the end of `text`, written from the start of a
    /// line on a terminal `columns` wide, back to where it began, and clears the screen from
    /// there; `nil` when a character's width is not known to be one column or the text takes
    /// more than ``maximumRows`` rows.
    static func erasing(_ text: String, columns: Int) -> String? {
        guard columns > 0,
            text.unicodeScalars.allSatisfy({ $0 == "\n" || (0x20...0x7E).contains($0.value) })
        else { return nil }
        var rows = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // A full last row leaves the cursor on it (the wrap waits for the next character).
            rows += line.isEmpty ? 1 : (line.utf8.count + columns - 1) / columns
        }
        guard rows <= maximumRows else { return nil }
        return "\r" + (rows > 1 ? "\u{1B}[\(rows - 1)A" : "") + "\u{1B}[J"
    }
}
