import MCP
import Testing

@testable import MCPAgent

@Suite("Tool output cut: head and tail")
struct ToolOutputCutTests {
    static let format = ToolOutputFormat(maximumCharacters: 400, frame: ToolOutputFrame(boundary: "testtest"))

    /// Numbered lines, so the head and the tail can be recognised.
    static func lines(_ count: Int) -> String {
        (1...count).map { "line \($0) of the output" }.joined(separator: "\n")
    }

    /// The head, the note and the tail of a cut text.
    static func parts(_ cut: String) throws -> (head: String, note: Substring, tail: String) {
        let lines = cut.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix("…[output cut: ") })
        return (lines[..<index].joined(separator: "\n"), lines[index], lines[(index + 1)...].joined(separator: "\n"))
    }

    @Test("Output within the limit is not cut")
    func short() {
        let text = Self.lines(5)
        #expect(Self.format.cut(text) == text)
        #expect(Self.format.cut(String(repeating: "x", count: 400)).count == 400)
    }

    @Test("Long output keeps its head and tail at line boundaries, with a note of what was left out", arguments: [30, 100, 1000])
    func lines(_ count: Int) throws {
        let text = Self.lines(count)
        let cut = Self.format.cut(text)
        #expect(cut.count <= 400)
        let (head, note, tail) = try Self.parts(cut)
        #expect(head.hasPrefix("line 1 of the output\n"))
        #expect(head.hasSuffix(" of the output"), "the head ends at a whole line")
        #expect(tail.hasPrefix("line "), "the tail starts at a whole line")
        #expect(tail.hasSuffix("line \(count) of the output"))
        #expect(text.hasPrefix(head) && text.hasSuffix(tail))
        let leftOut = text.count - head.count - tail.count
        #expect(note == "…[output cut: \(leftOut) of \(text.count) characters left out]…")
        // About two thirds head, one third tail.
        #expect(head.count > tail.count && tail.count * 4 > head.count)
    }

    @Test("Prose without line breaks is cut at words")
    func words() throws {
        let text = (1...200).map { "word\($0)" }.joined(separator: " ")
        let cut = Self.format.cut(text)
        #expect(cut.count <= 400)
        let (head, _, tail) = try Self.parts(cut)
        #expect(head.hasPrefix("word1 word2 ") && head.last?.isNumber == true)
        #expect(tail.hasPrefix("word") && tail.hasSuffix("word200"))
        #expect(text.contains(head + " ") && text.contains(" " + tail))
    }

    @Test("Text without spaces is cut inside, still within the limit")
    func noBoundaries() throws {
        let text = String(repeating: "a", count: 5_000)
        let cut = Self.format.cut(text)
        #expect(cut.count <= 400)
        let (head, note, tail) = try Self.parts(cut)
        let leftOut = try #require(Int(note.split(separator: " ")[2]))
        #expect(head.count + tail.count == 5_000 - leftOut)
        #expect(head.count > tail.count)
    }

    @Test("Characters, not bytes: emoji and accented text are cut whole")
    func unicode() throws {
        let text = String(repeating: "👩‍👩‍👧‍👦 é\u{301}\n", count: 300)
        let cut = Self.format.cut(text)
        #expect(cut.count <= 400)
        let (head, _, tail) = try Self.parts(cut)
        #expect(text.hasPrefix(head) && text.hasSuffix(tail))
        #expect(head.hasSuffix("é\u{301}") && tail.hasPrefix("👩‍👩‍👧‍👦"))
    }

    @Test("A per-call limit cuts the body further; the frame and the error hint still come whole", arguments: [false, true])
    func perCallLimit(_ isError: Bool) throws {
        let result = CallToolResult(content: [.text(Self.lines(200))], isError: isError)
        let full = Self.format.render(result, toolName: "t")
        let small = Self.format.render(result, toolName: "t", maximumCharacters: 150)
        let kind = isError ? "error" : "output"
        for rendered in [full, small] {
            #expect(rendered.hasPrefix(Self.format.frame.opening(toolName: "t", kind: kind) + "\nline 1 of the output\n"))
            #expect(rendered.contains("line 200 of the output\n" + Self.format.frame.closing(toolName: "t", kind: kind)))
            #expect(rendered.hasSuffix("answer without it.") == isError)
        }
        let frameAndHint = full.count - Self.format.cut(Self.lines(200)).count
        #expect(small.count - frameAndHint <= 150)
        #expect(small.count < full.count)
        // A larger per-call limit does not lift the format's own.
        #expect(Self.format.render(result, toolName: "t", maximumCharacters: 10_000) == full)
        // Output that fits is unchanged.
        let short = CallToolResult(content: [.text("ok")], isError: isError)
        #expect(Self.format.render(short, toolName: "t", maximumCharacters: 150) == Self.format.render(short, toolName: "t"))
    }

    @Test("A limit too small for any output leaves only the note", arguments: [0, 10, 60])
    func tinyLimit(_ limit: Int) {
        let text = Self.lines(100)
        let rendered = Self.format.render(CallToolResult(content: [.text(text)]), toolName: "t", maximumCharacters: limit)
        #expect(rendered.contains("\n…[output cut: \(text.count) of \(text.count) characters left out]…\n"))
        #expect(!rendered.contains("line 1 "))
    }

    @Test("Secrets are redacted before the cut, so a cut never shows part of one")
    func redactedBeforeCut() {
        let secret = "sk-" + String(repeating: "A1b2C3d4", count: 6)
        let text = Self.lines(30) + "\nkey " + secret
        let rendered = Self.format.render(CallToolResult(content: [.text(text)]), toolName: "t", maximumCharacters: 200)
        #expect(!rendered.contains("A1b2C3d4"))
    }
}
