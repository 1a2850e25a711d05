import PortableFoundationModels
import Testing

/// The length guide the MCP bridge writes and ChatCompletions reads back.
@Suite struct LengthPatternTests {
    @Test(
        "A length is written as its pattern and read back from it",
        arguments: [
            (LengthPattern(minimum: 0, maximum: 10), #"[\s\S]{0,10}"#),
            (LengthPattern(minimum: 3, maximum: nil), #"[\s\S]{3,}"#),
            (LengthPattern(minimum: 5, maximum: 5), #"[\s\S]{5,5}"#),
        ])
    func roundTrip(length: LengthPattern, pattern: String) {
        #expect(length.pattern == pattern)
        #expect(LengthPattern(pattern: pattern) == length)
    }

    @Test(
        "Any other pattern is not a length",
        arguments: [
            #"[\s\S]{5,2}"#, #"[\s\S]{,3}"#, #"[\s\S]{1}"#, #"[\s\S]{1,2,3}"#, #"[\s\S]{١,2}"#, #"[a-z]{1,2}"#, #"[\s\S]{1,2}x"#, "",
        ])
    func notALength(pattern: String) {
        #expect(LengthPattern(pattern: pattern) == nil)
    }

    @Test("A length pattern matches exactly the strings of that many Unicode scalars")
    func matchesScalars() throws {
        let regex = try Regex(LengthPattern(minimum: 2, maximum: 3).pattern).matchingSemantics(.unicodeScalar)
        #expect(("ab".wholeMatch(of: regex)) != nil)
        #expect(("é\u{301}x".wholeMatch(of: regex)) != nil)
        #expect(("a".wholeMatch(of: regex)) == nil)
        #expect(("abcd".wholeMatch(of: regex)) == nil)
    }
}
