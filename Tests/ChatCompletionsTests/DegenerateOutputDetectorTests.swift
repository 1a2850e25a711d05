import Testing

@testable import ChatCompletions

/// The degenerate-output detector, fed as a server streams: loops are cut soon after they
/// start, legitimate text with repeated structure never is.
@Suite("DegenerateOutputDetector")
struct DegenerateOutputDetectorTests {
    /// `text` in deltas as a server streams it: each word with the whitespace after it, in
    /// pieces of at most 4 characters (as a tokenizer splits long words).
    static func deltas(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character.isWhitespace || current.count == 4 {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// Feeds `deltas` until a cut: the cut and how many characters had been fed when it came.
    static func run(_ deltas: [String]) -> (cut: DegenerateOutput?, fed: Int) {
        var detector = DegenerateOutputDetector()
        var fed = 0
        for delta in deltas {
            fed += delta.unicodeScalars.count
            if case .cut(let output) = detector.feed(delta) { return (output, fed) }
        }
        return (nil, fed)
    }

    // MARK: Loops

    struct Loop: Sendable, CustomTestStringConvertible {
        var name: String
        var lead: String
        var unit: String
        var kind: DegenerateOutput.Kind
        /// The unit the cut reports (the loop's unit, from its first word).
        var reported: String
        /// The most characters of the loop (after the lead) fed before the cut.
        var within: Int
        var testDescription: String { name }
    }

    static let loops: [Loop] = [
        Loop(
            name: "a short unit of words and punctuation ([aesbw]; )", lead: "The tags are: ", unit: "[aesbw]; ", kind: .repeatedText,
            reported: "[aesbw]; ", within: 80),
        Loop(
            name: "SmolLM2's list loop (* \"help\" / * \"hugging face\")", lead: "The tags are:\n\n",
            unit: "* \"help\"\n* \"hugging face\"\n",
            kind: .repeatedText, reported: "* \"help\"\n* \"hugging face\"\n", within: 8 * 26 + 26),
        Loop(
            name: "a word sequence", lead: "So, ", unit: "the time is ", kind: .repeatedText, reported: "the time is ", within: 8 * 12 + 12),
        Loop(name: "one character", lead: "Wow", unit: "!", kind: .repeatedText, reported: "!", within: 128 + 3),
        Loop(name: "runaway newlines", lead: "Done.", unit: "\n", kind: .repeatedText, reported: "\n", within: 128),
        Loop(name: "a two-character unit", lead: "Look: ", unit: "- ", kind: .repeatedText, reported: "- ", within: 130),
        Loop(
            name: "a sentence", lead: "Well. ", unit: "I am sorry, but I cannot help with that request right now. ", kind: .repeatedText,
            reported: "I am sorry, but I cannot help with that request right now. ", within: 5 * 60 + 60),
        Loop(
            name: "a loop inside a guided step's JSON string", lead: #"{"answer": "It is 10:00 in Tokyo. "#, unit: "Tokyo Tokyo ",
            kind: .repeatedText, reported: "Tokyo ", within: 140),
        Loop(
            name: "a tool call's argument that loops", lead: #"{"tool": "notes_add", "arguments": {"text": "#, unit: "buy milk, ",
            kind: .repeatedText, reported: "buy milk, ", within: 8 * 10 + 10),
    ]

    @Test("A loop is cut soon after it starts, naming its unit", arguments: loops)
    func loopIsCut(_ loop: Loop) throws {
        let text = loop.lead + String(repeating: loop.unit, count: 2000 / loop.unit.count + 10)
        let (cut, fed) = Self.run(Self.deltas(text))
        let output = try #require(cut, "never cut")
        #expect(output.kind == loop.kind)
        #expect(output.unit == loop.reported)
        #expect(output.repeats >= 3)
        #expect(fed - loop.lead.unicodeScalars.count <= loop.within, "cut after \(fed) characters")
        #expect(output.characters <= fed)
    }

    @Test("A loop whose unit is longer than 256 characters is cut as a token loop")
    func tokenLoop() throws {
        // A paragraph of 40 different words, repeated.
        let words = (0..<40).map { "word\($0)x " }
        let paragraph = words.joined()
        #expect(paragraph.count > DegenerateOutputDetector.longestUnit)
        var deltas = ["Intro: "]
        for _ in 0..<10 { deltas += words }
        let (cut, fed) = Self.run(deltas)
        let output = try #require(cut)
        #expect(output.kind == .repeatedTokens)
        #expect(output.repeats == DegenerateOutputDetector.tokenRepeats)
        // The unit as far as 256 characters.
        #expect(output.unit.unicodeScalars.count == DegenerateOutputDetector.longestUnit)
        #expect(paragraph.hasPrefix(output.unit))
        #expect(fed <= 7 + 4 * paragraph.count)
    }

    @Test("The same token over and over is cut, whatever it is")
    func sameToken() throws {
        let (cut, fed) = Self.run(Array(repeating: "Hello", count: 500))
        let output = try #require(cut)
        #expect(output.kind == .repeatedText)
        #expect(output.unit == "Hello")
        #expect(fed <= 70)
    }

    @Test("Whitespace and punctuation without a letter or digit are cut at 256 characters")
    func runawayWhitespace() throws {
        // Not periodic: a fixed pseudo-random walk over whitespace and punctuation.
        let alphabet = Array(" \n\t.,;:-*!?()[]{}\"'")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var text = "Answer: "
        for _ in 0..<1000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text.append(alphabet[Int(state >> 33) % alphabet.count])
        }
        let (cut, fed) = Self.run(Self.deltas(text))
        let output = try #require(cut)
        #expect(output.kind == .runawayWhitespace)
        #expect(output.repeats == DegenerateOutputDetector.runawayLength)
        #expect(fed <= 8 + 256 + 4)
    }

    @Test("A unit is held to its smallest period's threshold: abab… is ab, cut at 128 characters, not as abababab at 64")
    func smallestPeriod() throws {
        let (cut, fed) = Self.run(Array(repeating: "ab", count: 200))
        let output = try #require(cut)
        #expect(output.unit == "ab")
        #expect(fed >= 128 && fed <= 130)
    }

    @Test("After a cut, every delta is answered with the same cut")
    func cutStays() throws {
        var detector = DegenerateOutputDetector()
        var first: DegenerateOutput?
        for _ in 0..<200 {
            if case .cut(let output) = detector.feed("x") {
                first = output
                break
            }
        }
        let cut = try #require(first)
        #expect(detector.feed("A new sentence.") == .cut(cut))
        #expect(detector.cut == cut)
    }

    @Test("The cut's sentence names the part, the characters and the unit, escaped and shortened")
    func sentence() {
        let output = DegenerateOutput(kind: .repeatedText, unit: "[aesbw];\n", repeats: 8, characters: 212)
        #expect(output.sentence == #"the model's answer was cut after 212 characters: it repeated "[aesbw];\n" 8 times in a row"#)
        let reasoning = output.inPart(.reasoning)
        #expect(reasoning.sentence.hasPrefix("the model's reasoning was cut after 212 characters"))
        let long = DegenerateOutput(kind: .repeatedTokens, unit: String(repeating: "abcdefghij", count: 10), repeats: 4, characters: 900)
        #expect(long.description == #"it repeated a sequence of tokens ("abcdefghijabcdefghijabcdefghijabcdefghij…") 4 times in a row"#)
        let run = DegenerateOutput(kind: .runawayWhitespace, unit: "  ", repeats: 256, characters: 300)
        #expect(run.description == "it wrote 256 characters of whitespace and punctuation in a row, without a letter or digit")
        let error = ChatCompletionsError.degenerate(output)
        #expect(error == .degenerateOutput)
        #expect(error.degeneration == output)
        #expect("\(error)" == output.sentence)
    }

    // MARK: Legitimate text

    struct Legitimate: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var testDescription: String { name }
    }

    static let legitimate: [Legitimate] = [
        Legitimate(
            name: "a list whose items say the same thing",
            text: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map { "- \($0): closed\n" }.joined()),
        Legitimate(
            name: "a Markdown table of an identity matrix",
            text: "| | a | b | c | d | e | f | g | h |\n|---|---|---|---|---|---|---|---|---|\n"
                + (0..<8).map { row in
                    "| \(row) | " + (0..<8).map { $0 == row ? "1" : "0" }.joined(separator: " | ") + " |\n"
                }.joined()),
        Legitimate(
            name: "code with repeated structure and a separator line",
            text: "# " + String(repeating: "-", count: 77) + "\n" + "class Point:\n    def __init__(self, x, y, z):\n"
                + ["x", "y", "z"].map { "        self.\($0) = \($0)\n" }.joined()
                + "switch value {\n" + (0..<12).map { "case \($0): return \"\($0)\"\n" }.joined() + "default: return \"\"\n}\n"),
        Legitimate(
            name: "a JSON array of similar objects",
            text: "[" + (1...30).map { #"{"id": \#($0), "name": "item", "done": false}"# }.joined(separator: ", ") + "]"),
        Legitimate(name: "a number series", text: (1...300).map(String.init).joined(separator: ", ")),
        Legitimate(name: "counting, one number a line", text: (1...500).map { "\($0)\n" }.joined()),
        Legitimate(name: "thirty-two zeros", text: "[" + Array(repeating: "0", count: 32).joined(separator: ", ") + "]"),
        Legitimate(
            name: "a hex dump of zeroed memory",
            text: (0..<16).map { line in
                String(line * 16, radix: 16).leftPadded(to: 8) + ": " + Array(repeating: "00", count: 16).joined(separator: " ") + "\n"
            }.joined()),
        Legitimate(
            name: "a song with a refrain",
            text: (1...4).map { verse in
                "Verse \(verse): the road goes on and on, the night is long.\nRow, row, row your boat, gently down the stream.\n"
            }.joined()),
        Legitimate(name: "laughter", text: "Ha ha ha ha ha! That is a good one."),
        Legitimate(
            name: "deeply indented JSON",
            text: (0..<12).map { String(repeating: "  ", count: $0) + "{\"level\": \($0),\n" }.joined()
                + (0..<12).reversed().map { String(repeating: "  ", count: $0) + "}\n" }.joined()),
        Legitimate(
            name: "an ASCII table",
            text: "+-------+-------+-------+\n| name  | size  | kind  |\n+-------+-------+-------+\n"
                + (1...10).map { "| f\($0)    | \($0 * 10)    | file  |\n" }.joined() + "+-------+-------+-------+\n"),
        Legitimate(
            name: "prose",
            text: """
                The museum opens at nine in the morning and closes at six in the evening, except on Mondays, when it \
                stays closed for maintenance. Tickets can be bought at the entrance or online; children under twelve \
                enter for free, and students pay half price with a valid card. The permanent collection covers three \
                floors: ancient art on the ground floor, the Renaissance on the first, and modern painting on the second. \
                Temporary exhibitions change every season, and guided tours in English leave from the main hall at eleven \
                and at three. There is a café on the top floor with a view of the river, and a shop by the exit that sells \
                books, prints and postcards.
                """),
    ]

    @Test("Legitimate text with repeated structure is never cut", arguments: legitimate)
    func legitimateText(_ sample: Legitimate) {
        let (cut, _) = Self.run(Self.deltas(sample.text))
        #expect(cut == nil, "cut: \(cut.map(\.description) ?? "")")
        // Whole, in one delta (a server that does not stream), it is not cut either.
        let (whole, _) = Self.run([sample.text])
        #expect(whole == nil, "cut: \(whole.map(\.description) ?? "")")
    }

    @Test("Thresholds: the coverage a repetition needs, by the length of its unit")
    func thresholds() {
        #expect(DegenerateOutputDetector.coverage(period: 1) == 128)
        #expect(DegenerateOutputDetector.coverage(period: 4) == 128)
        #expect(DegenerateOutputDetector.coverage(period: 5) == 64)
        #expect(DegenerateOutputDetector.coverage(period: 9) == 72)
        #expect(DegenerateOutputDetector.coverage(period: 30) == 240)
        #expect(DegenerateOutputDetector.coverage(period: 31) == 155)
        #expect(DegenerateOutputDetector.coverage(period: 64) == 256)
        #expect(DegenerateOutputDetector.coverage(period: 256) == 1024)
    }
}

extension String {
    /// The string with zeros before it, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
