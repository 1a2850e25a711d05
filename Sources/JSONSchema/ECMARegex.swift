// A small ECMA-262 regular expression engine for JSON Schema's `pattern` and
// `patternProperties`.
//
// Why not Swift's `Regex`: it is not `Sendable`, its backtracking cannot be bounded (a pattern
// such as `(a+)+$` takes seconds on a 16-character input and grows exponentially), and its
// syntax and character classes differ from ECMA-262 in ways that change results (`\d` and `\w`
// are Unicode-aware, `.` is a grapheme cluster by default). This engine parses the ECMA-262
// syntax (with the `u` flag's code-point semantics), compiles it to a small backtracking
// program, and stops any match after a fixed number of steps.

/// A compiled ECMA-262 pattern; immutable and `Sendable`.
struct ECMARegex: Sendable, Hashable {
    /// The pattern as written in the schema.
    let source: String
    fileprivate let program: [Instruction]
    fileprivate let classes: [CharacterClass]
    fileprivate let lookarounds: [Lookaround]
    fileprivate let captureCount: Int
    fileprivate let registerCount: Int
    fileprivate let anchoredAtStart: Bool

    static func == (lhs: ECMARegex, rhs: ECMARegex) -> Bool { lhs.source == rhs.source }
    func hash(into hasher: inout Hasher) { hasher.combine(source) }

    /// A pattern that could not be compiled.
    struct SyntaxError: Error {
        let message: String
    }

    /// The outcome of a search.
    enum Outcome {
        case found
        case notFound
        /// The search used up its step budget before finishing.
        case budgetExceeded
    }

    /// Compiles `pattern`, refusing programs longer than `maximumProgramLength` instructions.
    init(_ pattern: String, maximumProgramLength: Int = 20_000) throws(SyntaxError) {
        var parser = RegexParser(Array(pattern.unicodeScalars))
        let tree = try parser.parseDisjunction()
        if parser.position < parser.scalars.count {
            throw SyntaxError(message: "unmatched ')' at offset \(parser.position)")
        }
        for name in parser.pendingNamedReferences where parser.groupNames[name] == nil {
            throw SyntaxError(message: "\\k<\(name)> names no group")
        }
        var compiler = RegexCompiler(limit: maximumProgramLength, classes: parser.classes)
        try compiler.emit(tree, names: parser.groupNames)
        compiler.append(.match)
        source = pattern
        program = compiler.program
        classes = compiler.classes
        lookarounds = compiler.lookarounds
        captureCount = parser.captureCount
        registerCount = compiler.registerCount
        anchoredAtStart = tree.startsWithAnchor
    }

    /// Searches `text` for a match anywhere (patterns are not implicitly anchored).
    func search(_ text: String, budget: inout Int) -> Outcome {
        if program.count == 1 { return .found }  // The empty pattern matches everywhere.
        let scalars = Array(text.unicodeScalars)
        var machine = Machine(regex: self, input: scalars, budget: budget)
        defer { budget = machine.budget }
        let lastStart = anchoredAtStart ? 0 : scalars.count
        var start = 0
        while start <= lastStart {
            switch machine.run(pc: 0, position: start, end: nil) {
            case .some(true): return .found
            case .none: return .budgetExceeded
            case .some(false): break
            }
            start += 1
        }
        return .notFound
    }
}

// MARK: - Syntax tree

private indirect enum RegexNode {
    case empty
    case scalar(Unicode.Scalar)
    case dot
    case characterClass(Int)
    case sequence([RegexNode])
    case alternation([RegexNode])
    case group(RegexNode, capture: Int?)
    case quantified(RegexNode, min: Int, max: Int?, greedy: Bool)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case lookaround(RegexNode, ahead: Bool, negated: Bool)
    case backReference(Int)
    case namedBackReference(String)

    var startsWithAnchor: Bool {
        switch self {
        case .lineStart: return true
        case .sequence(let items): return items.first?.startsWithAnchor ?? false
        case .group(let inner, _): return inner.startsWithAnchor
        case .alternation(let items): return !items.isEmpty && items.allSatisfy(\.startsWithAnchor)
        default: return false
        }
    }
}

private struct CharacterClass: Sendable, Hashable {
    enum Item: Sendable, Hashable {
        case range(UInt32, UInt32)
        case digit(negated: Bool)
        case word(negated: Bool)
        case space(negated: Bool)
        case property(UnicodeProperty, negated: Bool)
    }
    var items: [Item]
    var negated: Bool

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        var found = false
        for item in items {
            if item.matches(scalar) {
                found = true
                break
            }
        }
        return found != negated
    }
}

extension CharacterClass.Item {
    func matches(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .range(let low, let high): return scalar.value >= low && scalar.value <= high
        case .digit(let negated): return isECMADigit(scalar) != negated
        case .word(let negated): return isECMAWord(scalar) != negated
        case .space(let negated): return isECMASpace(scalar) != negated
        case .property(let property, let negated): return property.matches(scalar) != negated
        }
    }
}

private func isECMADigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

private func isECMAWord(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
}

private func isECMASpace(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
        return true
    default:
        return false
    }
}

private func isLineTerminator(_ s: Unicode.Scalar) -> Bool {
    s.value == 0x0A || s.value == 0x0D || s.value == 0x2028 || s.value == 0x2029
}

/// A Unicode property usable in `\p{…}`: a general category (or group of them) or a binary
/// property that the Swift standard library exposes.
private enum UnicodeProperty: Sendable, Hashable {
    case categories([Unicode.GeneralCategory])
    case alphabetic, whiteSpace, uppercase, lowercase, emoji, ascii, any, assigned
    case hexDigit, ideographic, math, dash, emojiPresentation, extendedPictographic

    func matches(_ s: Unicode.Scalar) -> Bool {
        switch self {
        case .categories(let list): return list.contains(s.properties.generalCategory)
        case .alphabetic: return s.properties.isAlphabetic
        case .whiteSpace: return s.properties.isWhitespace
        case .uppercase: return s.properties.isUppercase
        case .lowercase: return s.properties.isLowercase
        case .emoji: return s.properties.isEmoji
        case .emojiPresentation: return s.properties.isEmojiPresentation
        case .extendedPictographic:
            // Not exposed by the standard library; Emoji is the closest approximation.
            return s.properties.isEmoji
        case .ascii: return s.value < 0x80
        case .any: return true
        case .assigned: return s.properties.generalCategory != .unassigned
        case .hexDigit: return s.properties.isHexDigit
        case .ideographic: return s.properties.isIdeographic
        case .math: return s.properties.isMath
        case .dash: return s.properties.isDash
        }
    }

    init?(name rawName: String) {
        var name = rawName
        for prefix in ["General_Category=", "gc="] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
        }
        typealias C = Unicode.GeneralCategory
        let letters: [C] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let marks: [C] = [.nonspacingMark, .spacingMark, .enclosingMark]
        let numbers: [C] = [.decimalNumber, .letterNumber, .otherNumber]
        let punctuation: [C] = [
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
        ]
        let symbols: [C] = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        let separators: [C] = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        let others: [C] = [.control, .format, .surrogate, .privateUse, .unassigned]
        let table: [String: [C]] = [
            "L": letters, "Letter": letters,
            "Lu": [.uppercaseLetter], "Uppercase_Letter": [.uppercaseLetter],
            "Ll": [.lowercaseLetter], "Lowercase_Letter": [.lowercaseLetter],
            "Lt": [.titlecaseLetter], "Titlecase_Letter": [.titlecaseLetter],
            "LC": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter],
            "Cased_Letter": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter],
            "Lm": [.modifierLetter], "Modifier_Letter": [.modifierLetter],
            "Lo": [.otherLetter], "Other_Letter": [.otherLetter],
            "M": marks, "Mark": marks, "Combining_Mark": marks,
            "Mn": [.nonspacingMark], "Nonspacing_Mark": [.nonspacingMark],
            "Mc": [.spacingMark], "Spacing_Mark": [.spacingMark],
            "Me": [.enclosingMark], "Enclosing_Mark": [.enclosingMark],
            "N": numbers, "Number": numbers,
            "Nd": [.decimalNumber], "Decimal_Number": [.decimalNumber], "digit": [.decimalNumber],
            "Nl": [.letterNumber], "Letter_Number": [.letterNumber],
            "No": [.otherNumber], "Other_Number": [.otherNumber],
            "P": punctuation, "Punctuation": punctuation, "punct": punctuation,
            "Pc": [.connectorPunctuation], "Connector_Punctuation": [.connectorPunctuation],
            "Pd": [.dashPunctuation], "Dash_Punctuation": [.dashPunctuation],
            "Ps": [.openPunctuation], "Open_Punctuation": [.openPunctuation],
            "Pe": [.closePunctuation], "Close_Punctuation": [.closePunctuation],
            "Pi": [.initialPunctuation], "Initial_Punctuation": [.initialPunctuation],
            "Pf": [.finalPunctuation], "Final_Punctuation": [.finalPunctuation],
            "Po": [.otherPunctuation], "Other_Punctuation": [.otherPunctuation],
            "S": symbols, "Symbol": symbols,
            "Sm": [.mathSymbol], "Math_Symbol": [.mathSymbol],
            "Sc": [.currencySymbol], "Currency_Symbol": [.currencySymbol],
            "Sk": [.modifierSymbol], "Modifier_Symbol": [.modifierSymbol],
            "So": [.otherSymbol], "Other_Symbol": [.otherSymbol],
            "Z": separators, "Separator": separators,
            "Zs": [.spaceSeparator], "Space_Separator": [.spaceSeparator],
            "Zl": [.lineSeparator], "Line_Separator": [.lineSeparator],
            "Zp": [.paragraphSeparator], "Paragraph_Separator": [.paragraphSeparator],
            "C": others, "Other": others,
            "Cc": [.control], "Control": [.control], "cntrl": [.control],
            "Cf": [.format], "Format": [.format],
            "Cs": [.surrogate], "Surrogate": [.surrogate],
            "Co": [.privateUse], "Private_Use": [.privateUse],
            "Cn": [.unassigned], "Unassigned": [.unassigned],
        ]
        if let list = table[name] {
            self = .categories(list)
            return
        }
        switch rawName {
        case "Alphabetic", "Alpha": self = .alphabetic
        case "White_Space", "space": self = .whiteSpace
        case "Uppercase", "Upper": self = .uppercase
        case "Lowercase", "Lower": self = .lowercase
        case "Emoji": self = .emoji
        case "Emoji_Presentation", "EPres": self = .emojiPresentation
        case "Extended_Pictographic", "ExtPict": self = .extendedPictographic
        case "ASCII": self = .ascii
        case "Any": self = .any
        case "Assigned": self = .assigned
        case "Hex_Digit", "Hex", "ASCII_Hex_Digit", "AHex": self = .hexDigit
        case "Ideographic", "Ideo": self = .ideographic
        case "Math": self = .math
        case "Dash": self = .dash
        default: return nil
        }
    }
}

// MARK: - Parser

private struct RegexParser {
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
        case "*": result = (0, nil); position += 1
        case "+": result = (1, nil); position += 1
        case "?": result = (0, 1); position += 1
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
            case "=": position += 1; look = (true, false)
            case "!": position += 1; look = (true, true)
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
        case "b": position += 1; return .wordBoundary(negated: false)
        case "B": position += 1; return .wordBoundary(negated: true)
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
        case "d": position += 1; return .digit(negated: false)
        case "D": position += 1; return .digit(negated: true)
        case "w": position += 1; return .word(negated: false)
        case "W": position += 1; return .word(negated: true)
        case "s": position += 1; return .space(negated: false)
        case "S": position += 1; return .space(negated: true)
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

// MARK: - Program

private enum Instruction: Sendable, Hashable {
    case scalar(Unicode.Scalar)
    case dot
    case characterClass(Int)
    /// Try `first`; on failure, resume at `second`.
    case split(first: Int, second: Int)
    case jump(Int)
    case save(slot: Int)
    case setRegister(Int)
    /// Fails when the position has not moved since the register was set (ECMA's empty-loop rule).
    case requireProgress(Int)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case lookaround(Int)
    case backReference(Int)
    case match
}

private struct Lookaround: Sendable, Hashable {
    var start: Int
    var ahead: Bool
    var negated: Bool
}

private struct RegexCompiler {
    let limit: Int
    var program: [Instruction] = []
    var classes: [CharacterClass]
    var lookarounds: [Lookaround] = []
    var registerCount = 0
    var deferred: [(RegexNode, Int)] = []

    init(limit: Int, classes: [CharacterClass]) {
        self.limit = limit
        self.classes = classes
    }

    mutating func append(_ instruction: Instruction) {
        program.append(instruction)
    }

    mutating func emit(_ node: RegexNode, names: [String: Int]) throws(ECMARegex.SyntaxError) {
        try emitNode(node, names: names)
        // Lookaround bodies are compiled after the main program, each ending in `match`.
        var index = 0
        while index < deferred.count {
            let (body, lookIndex) = deferred[index]
            index += 1
            append(.match)  // Terminates whatever precedes.
            lookarounds[lookIndex].start = program.count
            try emitNode(body, names: names)
            append(.match)
        }
    }

    mutating func check() throws(ECMARegex.SyntaxError) {
        if program.count > limit {
            throw ECMARegex.SyntaxError(message: "pattern compiles to more than \(limit) instructions")
        }
    }

    mutating func emitNode(_ node: RegexNode, names: [String: Int]) throws(ECMARegex.SyntaxError) {
        try check()
        switch node {
        case .empty: break
        case .scalar(let s): append(.scalar(s))
        case .dot: append(.dot)
        case .characterClass(let index): append(.characterClass(index))
        case .sequence(let items):
            for item in items { try emitNode(item, names: names) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    append(.split(first: split + 1, second: -1))
                    try emitNode(branch, names: names)
                    jumps.append(program.count)
                    append(.jump(-1))
                    program[split] = .split(first: split + 1, second: program.count)
                } else {
                    try emitNode(branch, names: names)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .group(let inner, let capture):
            if let capture { append(.save(slot: capture * 2)) }
            try emitNode(inner, names: names)
            if let capture { append(.save(slot: capture * 2 + 1)) }
        case .quantified(let inner, let min, let max, let greedy):
            try emitQuantified(inner, min: min, max: max, greedy: greedy, names: names)
        case .lineStart: append(.lineStart)
        case .lineEnd: append(.lineEnd)
        case .wordBoundary(let negated): append(.wordBoundary(negated: negated))
        case .lookaround(let body, let ahead, let negated):
            lookarounds.append(Lookaround(start: -1, ahead: ahead, negated: negated))
            deferred.append((body, lookarounds.count - 1))
            append(.lookaround(lookarounds.count - 1))
        case .backReference(let number): append(.backReference(number))
        case .namedBackReference(let name): append(.backReference(names[name] ?? 0))
        }
    }

    mutating func emitQuantified(
        _ inner: RegexNode, min: Int, max: Int?, greedy: Bool, names: [String: Int]
    ) throws(ECMARegex.SyntaxError) {
        if min > limit || (max ?? 0) > limit {
            throw ECMARegex.SyntaxError(message: "quantifier bound exceeds \(limit)")
        }
        for _ in 0..<min {
            try emitNode(inner, names: names)
            try check()
        }
        if let max {
            // Optional copies: each one may be skipped, and skipping one skips the rest.
            var exits: [Int] = []
            for _ in min..<max {
                let split = program.count
                append(.split(first: -1, second: -1))
                exits.append(split)
                let register = registerCount
                registerCount += 1
                append(.setRegister(register))
                try emitNode(inner, names: names)
                append(.requireProgress(register))
                try check()
            }
            let end = program.count
            for split in exits {
                program[split] = greedy ? .split(first: split + 1, second: end) : .split(first: end, second: split + 1)
            }
        } else {
            let register = registerCount
            registerCount += 1
            let loop = program.count
            append(.split(first: -1, second: -1))
            append(.setRegister(register))
            try emitNode(inner, names: names)
            append(.requireProgress(register))
            append(.jump(loop))
            let end = program.count
            program[loop] = greedy ? .split(first: loop + 1, second: end) : .split(first: end, second: loop + 1)
        }
    }
}

// MARK: - Matching

private struct Machine {
    let program: [Instruction]
    let classes: [CharacterClass]
    let lookarounds: [Lookaround]
    let input: [Unicode.Scalar]
    var budget: Int
    var slots: [Int]
    var registers: [Int]

    init(regex: ECMARegex, input: [Unicode.Scalar], budget: Int) {
        program = regex.program
        classes = regex.classes
        lookarounds = regex.lookarounds
        self.input = input
        self.budget = budget
        slots = Array(repeating: -1, count: (regex.captureCount + 1) * 2)
        registers = Array(repeating: -1, count: regex.registerCount)
    }

    private enum Frame {
        case resume(pc: Int, position: Int)
        case restoreSlot(Int, Int)
        case restoreRegister(Int, Int)
    }

    /// Runs from `pc` at `position`; `true` on a match (ending at `end` when given), `false`
    /// when none, `nil` when the budget ran out.
    mutating func run(pc startPC: Int, position startPosition: Int, end: Int?) -> Bool? {
        var stack: [Frame] = []
        var pc = startPC
        var position = startPosition
        while true {
            budget -= 1
            if budget < 0 { return nil }
            var failed = false
            switch program[pc] {
            case .scalar(let s):
                if position < input.count, input[position] == s {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .dot:
                if position < input.count, !isLineTerminator(input[position]) {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .characterClass(let index):
                if position < input.count, classes[index].contains(input[position]) {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .split(let first, let second):
                stack.append(.resume(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let slot):
                stack.append(.restoreSlot(slot, slots[slot]))
                slots[slot] = position
                pc += 1
            case .setRegister(let register):
                stack.append(.restoreRegister(register, registers[register]))
                registers[register] = position
                pc += 1
            case .requireProgress(let register):
                if registers[register] == position {
                    failed = true
                } else {
                    pc += 1
                }
            case .lineStart:
                if position == 0 { pc += 1 } else { failed = true }
            case .lineEnd:
                if position == input.count { pc += 1 } else { failed = true }
            case .wordBoundary(let negated):
                let before = position > 0 && isECMAWord(input[position - 1])
                let after = position < input.count && isECMAWord(input[position])
                if (before != after) != negated { pc += 1 } else { failed = true }
            case .lookaround(let index):
                let look = lookarounds[index]
                var matched = false
                if look.ahead {
                    var inner = self
                    guard let result = inner.run(pc: look.start, position: position, end: nil) else {
                        budget = inner.budget
                        return nil
                    }
                    budget = inner.budget
                    matched = result
                    if result && !look.negated { slots = inner.slots }
                } else {
                    var start = position
                    while start >= 0 && !matched {
                        var inner = self
                        guard let result = inner.run(pc: look.start, position: start, end: position) else {
                            budget = inner.budget
                            return nil
                        }
                        budget = inner.budget
                        if result {
                            matched = true
                            if !look.negated { slots = inner.slots }
                        }
                        start -= 1
                    }
                }
                if matched != look.negated { pc += 1 } else { failed = true }
            case .backReference(let number):
                let startSlot = number * 2
                if startSlot + 1 < slots.count, slots[startSlot] >= 0, slots[startSlot + 1] >= slots[startSlot] {
                    let length = slots[startSlot + 1] - slots[startSlot]
                    if position + length <= input.count
                        && input[position..<(position + length)] == input[slots[startSlot]..<slots[startSlot + 1]]
                    {
                        position += length
                        pc += 1
                    } else {
                        failed = true
                    }
                } else {
                    pc += 1  // A group that did not participate matches the empty string.
                }
            case .match:
                if let end, position != end {
                    failed = true
                } else {
                    return true
                }
            }
            if failed {
                var resumed = false
                while let frame = stack.popLast() {
                    switch frame {
                    case .resume(let nextPC, let nextPosition):
                        pc = nextPC
                        position = nextPosition
                        resumed = true
                    case .restoreSlot(let slot, let value):
                        slots[slot] = value
                    case .restoreRegister(let register, let value):
                        registers[register] = value
                    }
                    if resumed { break }
                }
                if !resumed { return false }
            }
        }
    }
}
