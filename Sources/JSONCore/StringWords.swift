/// Tests on eight bytes of a string at once, for the reader's and the writer's fast paths.
///
/// Each test is exact for the word as a whole: it is true when at least one of the eight bytes
/// qualifies (a borrow can only spread from a byte that qualifies itself), so a caller skips a
/// word when the test is false and looks at its bytes one by one otherwise.
enum StringWords {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of eight bytes is a quote, a backslash or a control character: a byte a
    /// JSON string must escape.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes & highs
        let hasBackslash = (backslashes &- ones) & ~backslashes & highs
        let hasControl = (word &- ones &* 0x20) & ~word & highs
        return (hasQuote | hasBackslash | hasControl) != 0
    }

    /// Whether any of eight bytes needs escaping or is not ASCII (the reader validates those).
    @inline(__always)
    static func needsEscapeOrIsNotASCII(_ word: UInt64) -> Bool {
        needsEscape(word) || word & highs != 0
    }
}
