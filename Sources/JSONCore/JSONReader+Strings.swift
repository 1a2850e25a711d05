/// Strings: the plain-ASCII fast path, escapes, and UTF-8 validation.
extension Parser {
    mutating func parseString() throws(JSONReadError) -> String {
        let openQuote = position
        position += 1
        let start = position
        var highBits: UInt8 = 0
        // Fast path: no escapes.
        skipPlainASCII()
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ASCII.quote {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
                if highBits & 0x80 != 0 {
                    try validateUTF8(run, offset: start)
                }
                position += 1
                return String(decoding: run, as: UTF8.self)
            }
            if byte == ASCII.backslash {
                return try parseEscapedString(from: start)
            }
            if byte < 0x20 {
                throw controlCharacter(byte)
            }
            highBits |= byte
            position += 1
        }
        throw JSONReadError(.unexpectedEndOfInput, at: position, "unterminated string starting at byte \(openQuote)")
    }

    /// Moves past plain ASCII string bytes eight at a time, while eight are left.
    @inline(__always)
    mutating func skipPlainASCII() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while position &+ 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            if StringWords.needsEscapeOrIsNotASCII(word) { return }
            position &+= 8
        }
    }

    func controlCharacter(_ byte: UInt8) -> JSONReadError {
        JSONReadError(
            .controlCharacterInString, at: position,
            "control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) must be escaped in a string")
    }

    /// Continues a string that has escapes; `start` is the first byte after the quote.
    mutating func parseEscapedString(from start: Int) throws(JSONReadError) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(position - start + 16)
        var runStart = start
        while position < bytes.count {
            skipPlainASCII()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == ASCII.quote {
                try appendRun(from: runStart, into: &utf8)
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte < 0x20 {
                throw controlCharacter(byte)
            }
            guard byte == ASCII.backslash else {
                position += 1
                continue
            }
            try appendRun(from: runStart, into: &utf8)
            let escapeStart = position
            position += 1
            guard position < bytes.count else { break }
            switch bytes[position] {
            case ASCII.quote: utf8.append(ASCII.quote)
            case ASCII.backslash: utf8.append(ASCII.backslash)
            case ASCII.slash: utf8.append(ASCII.slash)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                position += 1
                let scalar = try parseUnicodeEscape(escapeStart: escapeStart)
                appendUTF8(scalar, to: &utf8)
                runStart = position
                continue
            case let other:
                throw JSONReadError(
                    .invalidEscape, at: escapeStart,
                    "'\\\(Character(Unicode.Scalar(other)))' is not a JSON escape; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX")
            }
            position += 1
            runStart = position
        }
        throw JSONReadError(.unexpectedEndOfInput, at: position, "unterminated string starting at byte \(start - 1)")
    }

    /// Appends the unescaped bytes from `runStart` up to `position`, validating UTF-8.
    func appendRun(from runStart: Int, into utf8: inout [UInt8]) throws(JSONReadError) {
        guard runStart < position else { return }
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
        try validateUTF8(run, offset: runStart)
        utf8.append(contentsOf: run)
    }

    /// Parses the four hex digits after `\u` (and a following low surrogate escape).
    mutating func parseUnicodeEscape(escapeStart: Int) throws(JSONReadError) -> Unicode.Scalar {
        let first = try parseHex4(escapeStart: escapeStart)
        switch first {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by `\u` and a low surrogate.
            guard position + 1 < bytes.count, bytes[position] == ASCII.backslash,
                bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw JSONReadError(
                    .loneSurrogate, at: escapeStart,
                    "\\u\(hex4(first)) is a high surrogate without a following low surrogate escape")
            }
            let secondStart = position
            position += 2
            let second = try parseHex4(escapeStart: secondStart)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw JSONReadError(
                    .loneSurrogate, at: escapeStart,
                    "\\u\(hex4(first)) is a high surrogate followed by \\u\(hex4(second)), which is not a low surrogate")
            }
            let value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        case 0xDC00...0xDFFF:
            throw JSONReadError(
                .loneSurrogate, at: escapeStart, "\\u\(hex4(first)) is a low surrogate without a high surrogate before it")
        default:
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }
    }

    func hex4(_ value: UInt16) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONReadError) -> UInt16 {
        guard position + 4 <= bytes.count else {
            throw JSONReadError(.invalidEscape, at: escapeStart, "\\u must be followed by four hexadecimal digits")
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONReadError(.invalidEscape, at: escapeStart, "\\u must be followed by four hexadecimal digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    func appendUTF8(_ scalar: Unicode.Scalar, to utf8: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            utf8.append(UInt8(value))
        case 0x80..<0x800:
            utf8.append(UInt8(0xC0 | (value >> 6)))
            utf8.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            utf8.append(UInt8(0xE0 | (value >> 12)))
            utf8.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            utf8.append(UInt8(0x80 | (value & 0x3F)))
        default:
            utf8.append(UInt8(0xF0 | (value >> 18)))
            utf8.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            utf8.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            utf8.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// Checks well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
    func validateUTF8(_ run: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONReadError) {
        var index = 0
        let count = run.count
        guard let base = run.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index < count {
            // Skip ASCII eight bytes at a time.
            while index &+ 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index &+= 8
            }
            guard index < count else { return }
            let lead = run[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lowerBound = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upperBound = 0x9F
            case 0xF0:
                length = 4
                lowerBound = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upperBound = 0x8F
            default:
                throw JSONReadError(
                    .invalidUTF8, at: offset + index, "byte 0x\(String(lead, radix: 16, uppercase: true)) is not valid UTF-8")
            }
            guard index + length <= count else {
                throw JSONReadError(.invalidUTF8, at: offset + index, "truncated UTF-8 sequence")
            }
            let second = run[index + 1]
            guard second >= lowerBound && second <= upperBound else {
                throw JSONReadError(.invalidUTF8, at: offset + index, "invalid UTF-8 sequence")
            }
            for continuation in 2..<max(2, length) where run[index + continuation] & 0xC0 != 0x80 {
                throw JSONReadError(.invalidUTF8, at: offset + index, "invalid UTF-8 sequence")
            }
            index += length
        }
    }
}
