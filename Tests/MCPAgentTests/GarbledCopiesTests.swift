import Testing

@testable import MCPAgent

@Suite("Values a tool returned, restored where an answer glued letters onto them")
struct GarbledCopiesTests {
    static let output = """
        [clock_now output #k7qx9fa2 — data, not instructions]
        {"utc":"2026-12-02T13:10:57.94Z","zone":"Asia/Tokyo","local":"2026-12-02T22:10:57+09:00"}
        Build v2.14.0-rc1 at https://ci.example.com/runs/88412, commit 9f3c2ab71d.
        Total: 1234.5678 over 2026-12-01
        [end of clock_now output #k7qx9fa2]
        """

    struct Garble: CustomTestStringConvertible, Sendable {
        let answer: String
        let shown: String
        let repairs: [GarbledCopy]
        var testDescription: String { answer }
    }

    static let garbles: [Garble] = [
        Garble(
            answer: "It is 2026-12-02T13:10:57.94ZYUQVN in UTC.", shown: "It is 2026-12-02T13:10:57.94Z in UTC.",
            repairs: [GarbledCopy(value: "2026-12-02T13:10:57.94Z", written: "2026-12-02T13:10:57.94ZYUQVN")]),
        Garble(
            answer: "Tokyo: 2026-12-02T22:10:57+09:00xq", shown: "Tokyo: 2026-12-02T22:10:57+09:00",
            repairs: [GarbledCopy(value: "2026-12-02T22:10:57+09:00", written: "2026-12-02T22:10:57+09:00xq")]),
        Garble(
            answer: "See https://ci.example.com/runs/884120a (commit 9f3c2ab71dzz).",
            shown: "See https://ci.example.com/runs/88412 (commit 9f3c2ab71d).",
            repairs: [
                GarbledCopy(value: "https://ci.example.com/runs/88412", written: "https://ci.example.com/runs/884120a"),
                GarbledCopy(value: "9f3c2ab71d", written: "9f3c2ab71dzz"),
            ]),
        Garble(
            answer: "\"2026-12-02T13:10:57.94Z0\"", shown: "\"2026-12-02T13:10:57.94Z\"",
            repairs: [GarbledCopy(value: "2026-12-02T13:10:57.94Z", written: "2026-12-02T13:10:57.94Z0")]),
    ]

    @Test("A value with letters or digits glued onto its end is shown as the tool returned it", arguments: garbles)
    func garbleRepaired(garble: Garble) {
        let copies = GarbledCopies(sources: [Self.output])
        let (shown, repairs) = copies.repairing(garble.answer)
        #expect(shown == garble.shown)
        #expect(repairs == garble.repairs)
    }

    @Test(
        "An answer that copied values faithfully, changed them or wrote its own words is unchanged",
        arguments: [
            "It is 2026-12-02T13:10:57.94Z in UTC.",
            "It is 2026-12-02T13:10:57 in UTC.",  // cut short
            "It is 2026-12-02T13:10:57.94 + 17:00.",  // a wrong offset, but no glued copy
            "It is 2026-12-02T13:10:58.00Z now.",  // a different value
            "Build v2.14.0-rc1, done.",
            "The total is 1234.5678km.",  // a plain number: a unit may be glued to it
            "On 2026-12-01T09:00 you met.",  // a date the model went on to write a time after
            "Nothing to do with the output, abcdefgh12345.",
            "",
        ])
    func faithfulAnswerUnchanged(answer: String) {
        let copies = GarbledCopies(sources: [Self.output])
        let (shown, repairs) = copies.repairing(answer)
        #expect(shown == answer)
        #expect(repairs.isEmpty)
    }

    @Test("A word the prompt or a tool holds whole is never a garbled copy")
    func sourceWordKept() {
        let copies = GarbledCopies(sources: ["id 2026-12-02T13:10:57.94Z", "compare 2026-12-02T13:10:57.94Zone"])
        let answer = "2026-12-02T13:10:57.94Zone and 2026-12-02T13:10:57.94Z"
        #expect(copies.repairing(answer).text == answer)
        #expect(copies.repairing(answer).repairs.isEmpty)
    }

    @Test("The longest value a word starts with is the one restored")
    func longestValueRestored() {
        let copies = GarbledCopies(sources: ["abc-1234 and abc-1234-x99"])
        let (shown, repairs) = copies.repairing("It is abc-1234-x99q.")
        #expect(shown == "It is abc-1234-x99.")
        #expect(repairs == [GarbledCopy(value: "abc-1234-x99", written: "abc-1234-x99q")])
    }

    @Test("Words are split at what no value holds, and lose the punctuation they start or end with")
    func words() {
        #expect(GarbledCopies.words(of: #"{"a":"2026-12-02T13:10Z."}, (v1.2.3-rc)"#) == ["a", "2026-12-02T13:10Z", "v1.2.3-rc"])
        #expect(GarbledCopies.words(of: "") == [])
        #expect(GarbledCopies.words(of: "— … ¿?") == [])
    }

    @Test(
        "A value is long, has a digit and is not a plain number",
        arguments: [
            ("2026-12-02T13:10:57Z", true), ("9f3c2ab71d", true), ("v2.14.0-rc1", true), ("12:34:56", true),
            ("1234.5678", false), ("12345678", false), ("abcdefgh", false), ("a1b2c3", false),
        ])
    func value(word: String, isValue: Bool) {
        #expect(GarbledCopies.isValue(Substring(word)) == isValue)
    }

    @Test("Sources are read up to a bound, so a huge output costs bounded work")
    func boundedSources() {
        let huge = (0..<(GarbledCopies.maximumWords + 500)).map { "id-\($0)-abcdef" }.joined(separator: " ")
        let copies = GarbledCopies(sources: [huge])
        // A value past the bound is not one to restore.
        let late = "id-\(GarbledCopies.maximumWords + 100)-abcdef"
        #expect(copies.repairing(late + "zz").repairs.isEmpty)
        #expect(copies.repairing("id-7-abcdefzz").text == "id-7-abcdef")
        #expect(GarbledCopies(sources: []).isEmpty)
    }
}
