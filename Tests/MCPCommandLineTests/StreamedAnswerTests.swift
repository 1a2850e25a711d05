import Testing

@testable import MCPCommandLine

/// What the chat writes to a terminal as an answer streams, and when the answer is replaced.
@Suite("A streamed answer on a terminal")
struct StreamedAnswerTests {
    static let clear = "\u{1B}[J"

    @Test("Text that extends what is shown is added; the end adds the rest and a line break")
    func extending() {
        var answer = StreamedAnswer()
        #expect(answer.show("It is", columns: 80, others: 0) == "It is")
        #expect(answer.show("It is 10:00", columns: 80, others: 0) == " 10:00")
        #expect(answer.finish("It is 10:00.", columns: 80, others: 0) == ".\n")
        // Ready for the next answer.
        #expect(answer.show("Next", columns: 80, others: 0) == "Next")
    }

    @Test("A replaced answer is erased where it began and written again")
    func replacedOnOneLine() {
        var answer = StreamedAnswer()
        _ = answer.show("No notes. No notes. No notes.", columns: 80, others: 3)
        #expect(answer.show("No", columns: 80, others: 3) == "\r" + Self.clear + "No")
        #expect(answer.finish("No note found", columns: 80, others: 3) == " note found\n")
    }

    @Test(
        "Erasing goes up one row for each row the shown text took, wrapped lines and line breaks alike",
        arguments: [
            ("abc", 10, "\r\u{1B}[J"),
            ("abcdefghij", 10, "\r\u{1B}[J"),  // a full row: the cursor stays on it
            ("abcdefghijk", 10, "\r\u{1B}[1A\u{1B}[J"),
            ("ab\ncd", 10, "\r\u{1B}[1A\u{1B}[J"),
            ("ab\n", 10, "\r\u{1B}[1A\u{1B}[J"),
            ("abcdefghijkl\n\nxy", 10, "\r\u{1B}[3A\u{1B}[J"),
        ])
    func rows(text: String, columns: Int, sequence: String) {
        #expect(StreamedAnswer.erasing(text, columns: columns) == sequence)
    }

    @Test(
        "Text whose width is not known, or that may have scrolled off the screen, is not erased",
        arguments: ["It is 10:00 in 東京", "tab\there", "emoji 👍", String(repeating: "x\n", count: 25)])
    func notErased(text: String) {
        #expect(StreamedAnswer.erasing(text, columns: 80) == nil)
    }

    @Test("Without a width, or after another line was written to the terminal, the answer is written whole at the end")
    func noErase() {
        for (columns, later) in [(Int?.none, 0), (80, 1)] {
            var answer = StreamedAnswer()
            _ = answer.show("No notes. No notes.", columns: columns, others: 0)
            // The replacement waits: nothing is written over what may be another line.
            #expect(answer.show("No", columns: columns, others: later) == "")
            #expect(answer.finish("No note found", columns: columns, others: later) == "\nNo note found\n")
        }
    }

    @Test("A turn that fails after it began to answer replaces the answer with its error")
    func failedTurn() {
        var answer = StreamedAnswer()
        _ = answer.show("[aesbw]; [aesbw]; [aesbw]; ", columns: 80, others: 0)
        let error = "error: the model's answer was cut after 72 characters"
        #expect(answer.finish(error, columns: 80, others: 0) == "\r" + Self.clear + error + "\n")
    }

    @Test("An answer with nothing shown is written whole")
    func nothingShown() {
        var answer = StreamedAnswer()
        #expect(answer.finish("Done.", columns: 80, others: 0) == "Done.\n")
    }

    @Test("Counting output counts every write and passes it on")
    func counting() {
        let base = CapturedOutput(isInteractive: true, columns: 100)
        let counting = CountingOutput(base)
        counting.write("a")
        counting.write("b\n")
        #expect(counting.writes == 2)
        #expect(base.text == "ab\n")
        #expect(counting.isInteractive && counting.columns == 100)
        #expect(CapturedOutput(columns: 100).columns == nil)
    }
}
