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
    let program: [Instruction]
    let classes: [CharacterClass]
    let lookarounds: [Lookaround]
    let captureCount: Int
    let registerCount: Int
    let anchoredAtStart: Bool

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

indirect enum RegexNode {
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

struct CharacterClass: Sendable, Hashable {
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

func isECMADigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

func isECMAWord(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
}

func isECMASpace(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
        return true
    default:
        return false
    }
}

func isLineTerminator(_ s: Unicode.Scalar) -> Bool {
    s.value == 0x0A || s.value == 0x0D || s.value == 0x2028 || s.value == 0x2029
}

/// A Unicode property usable in `\p{…}`: a general category (or group of them) or a binary
/// property that the Swift standard library exposes.
enum UnicodeProperty: Sendable, Hashable {
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
