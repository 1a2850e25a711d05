// ECMARegex: the pattern parser, from ECMA-262 syntax to a syntax tree.

/// Reads an ECMA-262 pattern (with the `u` flag) into a ``RegexNode`` tree.
struct RegexParser {
    let scalars: [Unicode.Scalar]
    var position = 0
    var captureCount = 0
    var groupNames: [String: Int] = [:]
    var pendingNamedReferences: [String] = []
    var classes: [CharacterClass] = []
    var depth = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    func error(_ message: String) -> ECMARegex.SyntaxError {
        ECMARegex.SyntaxError(message: "\(message) at offset \(position)")
    }

    mutating func parseDisjunction() throws(ECMARegex.SyntaxError) -> RegexNode {
        depth += 1
        defer { depth -= 1 }
        if depth > 100 { throw error("groups nested too deeply") }
        var branches = [try parseAlternative()]
        while current == "|" {
            position += 1
            branches.append(try parseAlternative())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func parseAlternative() throws(ECMARegex.SyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            var atom = try parseTerm()
            if let quantifier = try parseQuantifier() {
                switch atom {
                case .lineStart, .lineEnd, .wordBoundary:
                    throw error("nothing to repeat")
                case .lookaround(_, let ahead, _) where !ahead:
                    throw error("nothing to repeat")
                default: break
                }
                atom = .quantified(atom, min: quantifier.min, max: quantifier.max, greedy: quantifier.greedy)
            }
            items.append(atom)
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    mutating func parseQuantifier() throws(ECMARegex.SyntaxError) -> (min: Int, max: Int?, greedy: Bool)? {
        guard let scalar = current else { return nil }
        var result: (min: Int, max: Int?)
        switch scalar {
        case "*":
            result = (0, nil)
            position += 1
        case "+":
            result = (1, nil)
            position += 1
        case "?":
            result = (0, 1)
            position += 1
        case "{":
            let saved = position
            position += 1
            guard let low = parseDecimal() else {
                position = saved
                return nil
            }
            var high: Int? = low
            if current == "," {
                position += 1
                high = parseDecimal()
            }
            guard current == "}" else {
                position = saved
                return nil
            }
            position += 1
            if let high, high < low { throw error("numbers out of order in {} quantifier") }
            result = (low, high)
        default:
            return nil
        }
        var greedy = true
        if current == "?" {
            greedy = false
            position += 1
        }
        return (result.min, result.max, greedy)
    }

    mutating func parseDecimal() -> Int? {
        var value: Int?
        while let scalar = current, isECMADigit(scalar) {
            let digit = Int(scalar.value - 0x30)
            let (times, overflow1) = (value ?? 0).multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            value = (overflow1 || overflow2) ? Int.max : sum
            position += 1
        }
        return value
    }

    mutating func parseTerm() throws(ECMARegex.SyntaxError) -> RegexNode {
        guard let scalar = current else { throw error("unexpected end of pattern") }
        position += 1
        switch scalar {
        case "^": return .lineStart
        case "$": return .lineEnd
        case ".": return .dot
        case "(": return try parseGroup()
        case "[": return try parseClass()
        case "\\": return try parseAtomEscape()
        case "*", "+", "?": throw error("nothing to repeat")
        case "{":
            position -= 1
            let saved = position
            if try parseQuantifier() != nil { throw error("nothing to repeat") }
            position = saved + 1
            return .scalar(scalar)
        default: return .scalar(scalar)
        }
    }

    mutating func parseGroup() throws(ECMARegex.SyntaxError) -> RegexNode {
        var capture: Int?
        var look: (ahead: Bool, negated: Bool)?
        if current == "?" {
            position += 1
            switch current {
            case ":": position += 1
            case "=":
                position += 1
                look = (true, false)
            case "!":
                position += 1
                look = (true, true)
            case "<":
                position += 1
                if current == "=" {
                    position += 1
                    look = (false, false)
                } else if current == "!" {
                    position += 1
                    look = (false, true)
                } else {
                    let name = try parseGroupName()
                    if groupNames[name] != nil { throw error("duplicate group name \(name)") }
                    captureCount += 1
                    groupNames[name] = captureCount
                    capture = captureCount
                }
            default: throw error("invalid group")
            }
        } else {
            captureCount += 1
            capture = captureCount
        }
        let inner = try parseDisjunction()
        guard current == ")" else { throw error("missing ')'") }
        position += 1
        if let look { return .lookaround(inner, ahead: look.ahead, negated: look.negated) }
        return .group(inner, capture: capture)
    }

    mutating func parseGroupName() throws(ECMARegex.SyntaxError) -> String {
        var name = ""
        while let scalar = current, scalar != ">" {
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard current == ">", !name.isEmpty else { throw error("invalid group name") }
        position += 1
        return name
    }

    mutating func parseAtomEscape() throws(ECMARegex.SyntaxError) -> RegexNode {
        guard let scalar = current else { throw error("\\ at end of pattern") }
        switch scalar {
        case "b":
            position += 1
            return .wordBoundary(negated: false)
        case "B":
            position += 1
            return .wordBoundary(negated: true)
        case "1"..."9":
            let number = parseDecimal() ?? 0
            return .backReference(number)
        case "k":
            position += 1
            guard current == "<" else { throw error("invalid \\k escape") }
            position += 1
            let name = try parseGroupName()
            pendingNamedReferences.append(name)
            return .namedBackReference(name)
        default:
            if let item = try parseClassEscape() {
                classes.append(CharacterClass(items: [item], negated: false))
                return .characterClass(classes.count - 1)
            }
            return .scalar(try parseCharacterEscape(inClass: false))
        }
    }

    /// `\d \D \w \W \s \S \p{…} \P{…}`, or nil for other escapes (position unchanged).
    mutating func parseClassEscape() throws(ECMARegex.SyntaxError) -> CharacterClass.Item? {
        guard let scalar = current else { return nil }
        switch scalar {
        case "d":
            position += 1
            return .digit(negated: false)
        case "D":
            position += 1
            return .digit(negated: true)
        case "w":
            position += 1
            return .word(negated: false)
        case "W":
            position += 1
            return .word(negated: true)
        case "s":
            position += 1
            return .space(negated: false)
        case "S":
            position += 1
            return .space(negated: true)
        case "p", "P":
            position += 1
            guard current == "{" else { throw error("\\p must be followed by {name}") }
            position += 1
            var name = ""
            while let c = current, c != "}" {
                name.unicodeScalars.append(c)
                position += 1
            }
            guard current == "}" else { throw error("missing '}' in \\p{…}") }
            position += 1
            guard let property = UnicodeProperty(name: name) else {
                throw error("unsupported Unicode property \\p{\(name)}")
            }
            return .property(property, negated: scalar == "P")
        default:
            return nil
        }
    }

    mutating func parseHex(count: Int) -> UInt32? {
        guard position + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let digit = hexValue(scalars[position + offset]) else { return nil }
            value = value * 16 + digit
        }
        position += count
        return value
    }

    func hexValue(_ s: Unicode.Scalar) -> UInt32? {
        switch s.value {
        case 0x30...0x39: return s.value - 0x30
        case 0x41...0x46: return s.value - 0x41 + 10
        case 0x61...0x66: return s.value - 0x61 + 10
        default: return nil
        }
    }

    /// A character escape after `\` (the backslash already consumed).
    mutating func parseCharacterEscape(inClass: Bool) throws(ECMARegex.SyntaxError) -> Unicode.Scalar {
        guard let scalar = current else { throw error("\\ at end of pattern") }
        position += 1
        switch scalar {
        case "t": return "\t"
        case "n": return "\n"
        case "r": return "\r"
        case "v": return "\u{0B}"
        case "f": return "\u{0C}"
        case "0":
            if let next = current, isECMADigit(next) { throw error("invalid octal escape") }
            return "\u{0}"
        case "b" where inClass: return "\u{08}"
        case "-" where inClass: return "-"
        case "c":
            if let letter = current, (0x41...0x5A).contains(letter.value) || (0x61...0x7A).contains(letter.value) {
                position += 1
                return Unicode.Scalar(letter.value % 32) ?? "\u{0}"
            }
            throw error("invalid \\c escape")
        case "x":
            guard let value = parseHex(count: 2), let result = Unicode.Scalar(value) else {
                throw error("invalid \\x escape")
            }
            return result
        case "u":
            if current == "{" {
                position += 1
                var value: UInt32 = 0
                var digits = 0
                while let c = current, let digit = hexValue(c) {
                    value = value &* 16 &+ digit
                    digits += 1
                    position += 1
                    if digits > 8 { throw error("invalid \\u{…} escape") }
                }
                guard current == "}", digits > 0, let result = Unicode.Scalar(value) else {
                    throw error("invalid \\u{…} escape")
                }
                position += 1
                return result
            }
            guard let high = parseHex(count: 4) else { throw error("invalid \\u escape") }
            if (0xD800...0xDBFF).contains(high), current == "\\",
                position + 1 < scalars.count, scalars[position + 1] == "u"
            {
                let saved = position
                position += 2
                if let low = parseHex(count: 4), (0xDC00...0xDFFF).contains(low),
                    let combined = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                {
                    return combined
                }
                position = saved
            }
            // A lone surrogate can never match a Swift string's scalars; use a noncharacter.
            return Unicode.Scalar(high) ?? "\u{FFFF}"
        default:
            if isECMAWord(scalar) {
                throw error("invalid escape \\\(scalar)")
            }
            return scalar  // Identity escape of a syntax character.
        }
    }

    mutating func parseClass() throws(ECMARegex.SyntaxError) -> RegexNode {
        var negated = false
        if current == "^" {
            negated = true
            position += 1
        }
        var items: [CharacterClass.Item] = []
        while let scalar = current, scalar != "]" {
            let low = try parseClassAtom()
            if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                let high = try parseClassAtom()
                guard case .range(let a, _) = low, case .range(let b, _) = high else {
                    throw error("character class escape used in a range")
                }
                guard a <= b else { throw error("range out of order in character class") }
                items.append(.range(a, b))
            } else {
                items.append(low)
            }
        }
        guard current == "]" else { throw error("missing ']'") }
        position += 1
        classes.append(CharacterClass(items: items, negated: negated))
        return .characterClass(classes.count - 1)
    }

    mutating func parseClassAtom() throws(ECMARegex.SyntaxError) -> CharacterClass.Item {
        guard let scalar = current else { throw error("missing ']'") }
        position += 1
        if scalar == "\\" {
            if let item = try parseClassEscape() { return item }
            let value = try parseCharacterEscape(inClass: true)
            return .range(value.value, value.value)
        }
        return .range(scalar.value, scalar.value)
    }
}
