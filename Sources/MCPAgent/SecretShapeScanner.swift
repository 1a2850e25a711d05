/// The well-known secret shapes, found in one pass over UTF-8 bytes.
enum ShapeScanner {
    /// A prefix that starts a token of at least `minimum` characters of `alphabet`.
    struct Shape: Sendable {
        let prefix: [UInt8]
        let kind: String
        let minimum: Int
        let alphabet: @Sendable (UInt8) -> Bool
        let caseInsensitive: Bool
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static func isKeyCharacter(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    static func isUpperAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
    }

    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isKeyCharacter(byte)
            || [UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(byte)
    }

    static let shapes: [Shape] = {
        func shape(
            _ prefix: String, _ kind: String, _ minimum: Int, _ alphabet: @escaping @Sendable (UInt8) -> Bool, caseInsensitive: Bool = false
        )
            -> Shape
        {
            Shape(prefix: Array(prefix.utf8), kind: kind, minimum: minimum, alphabet: alphabet, caseInsensitive: caseInsensitive)
        }
        return [
            shape("sk-", "api key", 20, isKeyCharacter),
            shape("sk_live_", "api key", 16, isKeyCharacter),
            shape("sk_test_", "api key", 16, isKeyCharacter),
            shape("rk_live_", "api key", 16, isKeyCharacter),
            shape("AIza", "api key", 30, isKeyCharacter),
            shape("AKIA", "aws access key", 16, isUpperAlphanumeric),
            shape("ASIA", "aws access key", 16, isUpperAlphanumeric),
            shape("ghp_", "github token", 30, isAlphanumeric),
            shape("gho_", "github token", 30, isAlphanumeric),
            shape("ghu_", "github token", 30, isAlphanumeric),
            shape("ghs_", "github token", 30, isAlphanumeric),
            shape("ghr_", "github token", 30, isAlphanumeric),
            shape("github_pat_", "github token", 20, isKeyCharacter),
            shape("xoxb-", "slack token", 10, isKeyCharacter),
            shape("xoxp-", "slack token", 10, isKeyCharacter),
            shape("xoxa-", "slack token", 10, isKeyCharacter),
            shape("bearer ", "bearer token", 16, isTokenCharacter, caseInsensitive: true),
        ]
    }()

    /// `text` with every shape replaced by its mark, and the kinds found.
    static func redact(_ text: String) -> (String, [String]) {
        let bytes = Array(text.utf8)
        let found = matches(in: bytes)
        guard !found.isEmpty else { return (text, []) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copiedUpTo = 0
        for match in found {
            output += bytes[copiedUpTo..<match.range.lowerBound]
            output += Array(SecretRedactor.mark(match.kind).utf8)
            copiedUpTo = match.range.upperBound
        }
        output += bytes[copiedUpTo...]
        return (String(decoding: output, as: UTF8.self), found.map(\.kind))
    }

    /// Whether a byte can start a shape (a table of 256, for one look-up per byte).
    static let startsShape: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for shape in shapes {
            guard let first = shape.prefix.first else { continue }
            table[Int(first)] = true
            if shape.caseInsensitive, (0x61...0x7A).contains(first) { table[Int(first - 0x20)] = true }
        }
        table[Int(UInt8(ascii: "-"))] = true
        table[Int(UInt8(ascii: "e"))] = true
        return table
    }()

    /// Every shape in `bytes` (ASCII; any other byte ends a token), in order, without overlaps.
    static func matches(in bytes: [UInt8]) -> [(range: Range<Int>, kind: String)] {
        var found: [(range: Range<Int>, kind: String)] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard startsShape[Int(byte)] else {
                index += 1
                continue
            }
            let atWordStart = index == 0 || !isKeyCharacter(bytes[index - 1])
            guard atWordStart else {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "-"), let end = pemEnd(bytes, from: index) {
                found.append((index..<end, "private key"))
                index = end
                continue
            }
            if byte == UInt8(ascii: "e"), let end = jwtEnd(bytes, from: index) {
                found.append((index..<end, "jwt"))
                index = end
                continue
            }
            var matched = false
            for shape in shapes where matches(shape, bytes, at: index) {
                var end = index + shape.prefix.count
                while end < bytes.count, shape.alphabet(bytes[end]) { end += 1 }
                if end - index - shape.prefix.count >= shape.minimum {
                    found.append((index..<end, shape.kind))
                    index = end
                    matched = true
                    break
                }
            }
            if !matched { index += 1 }
        }
        return found
    }

    static func matches(_ shape: Shape, _ bytes: [UInt8], at index: Int) -> Bool {
        guard index + shape.prefix.count <= bytes.count else { return false }
        for (offset, expected) in shape.prefix.enumerated() {
            var byte = bytes[index + offset]
            if shape.caseInsensitive, (0x41...0x5A).contains(byte) { byte += 0x20 }
            if byte != expected { return false }
        }
        return true
    }

    /// The end of a JWT starting at `start`: `eyJ` then three base64url parts of at least 8
    /// characters separated by dots.
    static func jwtEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start + 3 <= bytes.count, bytes[start + 1] == UInt8(ascii: "y"), bytes[start + 2] == UInt8(ascii: "J") else { return nil }
        var index = start
        for part in 0..<3 {
            let partStart = index
            while index < bytes.count, isKeyCharacter(bytes[index]) { index += 1 }
            guard index - partStart >= 8 else { return nil }
            if part < 2 {
                guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return nil }
                index += 1
            }
        }
        return index
    }

    static let pemBegin = Array("-----BEGIN ".utf8)
    static let pemEnd = Array("-----END ".utf8)
    static let privateKey = Array("PRIVATE KEY-----".utf8)

    /// The end of a private-key PEM block starting at `start`: after its `END` line, or the
    /// end of the text when the block is not closed.
    static func pemEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard bytes[start...].starts(with: pemBegin) else { return nil }
        // The BEGIN line must name a private key.
        var lineEnd = start
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, lineEnd - start < 80 { lineEnd += 1 }
        guard contains(privateKey, in: bytes[start..<lineEnd]) else { return nil }
        var index = lineEnd
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "-"), bytes[index...].starts(with: pemEnd) {
                var end = index + pemEnd.count
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                return end
            }
            index += 1
        }
        return bytes.count
    }

    static func contains(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Bool {
        guard haystack.count >= needle.count else { return false }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index...].starts(with: needle) { return true }
            index += 1
        }
        return false
    }
}
