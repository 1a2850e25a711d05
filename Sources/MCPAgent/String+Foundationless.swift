// String helpers that Foundation's `NSString` bridge provides on Darwin but
// FoundationEssentials does not, written against the standard library alone.

extension StringProtocol {
    /// The text without leading and trailing whitespace and line breaks.
    ///
    /// `Character.isWhitespace` covers what `CharacterSet.whitespacesAndNewlines` does:
    /// Unicode separators (Zs, Zl, Zp), tab, the line breaks U+000A–U+000D and U+0085.
    package var trimmingWhitespace: SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}

extension String {
    /// The text with `%XX` escapes decoded, or `nil` when an escape is malformed or the
    /// decoded bytes are not UTF-8 (what `removingPercentEncoding` returns).
    package var percentDecoded: String? {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = Self.hexValue(utf8[utf8.startIndex]),
                let low = Self.hexValue(utf8[utf8.startIndex + 1])
            else { return nil }
            bytes.append(high << 4 | low)
            utf8 = utf8.dropFirst(2)
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        // Invalid UTF-8 was repaired with U+FFFD, so it no longer round-trips.
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
