public import MCPCore

/// Cleaning and inspecting text that came from a server: tool names, descriptions and output.
///
/// Servers are untrusted. Their text can carry characters a person does not see but a model
/// reads (Unicode tag characters that spell ASCII, bidirectional overrides, zero-width
/// characters), and phrases written to steer the model. ``cleaned(_:)`` removes the invisible
/// characters; ``instructionFindings(in:)`` reports phrases that read as instructions to the
/// model; ``skeleton(_:)`` folds case, look-alike letters and invisible characters away so a
/// frame can recognise imitations of itself.
///
/// Every function here scans its input once, character by character, with constant work per
/// character (no regular expressions, no backtracking).
public enum UntrustedText {
    /// `text` without control and invisible characters; line feeds and tabs are kept.
    ///
    /// Removed: C0 and C1 controls (other than `\n` and `\t`; `\r` is dropped), the
    /// general category *Format* (zero-width space, joiners, U+2060 word joiner, U+FEFF,
    /// soft hyphen, bidirectional marks, overrides U+202A–202E and isolates U+2066–2069,
    /// Unicode tag characters U+E0000–E007F), variation selectors, the combining grapheme
    /// joiner and the Hangul filler characters.
    public static func cleaned(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.lazy.filter { !isInvisible($0) })
        return String(scalars)
    }

    /// How many characters ``cleaned(_:)`` removes from `text`.
    public static func invisibleCount(in text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + (isInvisible($1) ? 1 : 0) }
    }

    /// Whether `scalar` is a control or invisible character that ``cleaned(_:)`` removes.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x3164, 0xFFA0: return true
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0xE0000...0xE007F: return true
        case 0x2028, 0x2029: return true
        default: return scalar.properties.generalCategory == .format
        }
    }

    /// The text folded for comparison: ASCII letters and digits only, lowercased, with
    /// look-alike letters (Cyrillic, Greek, fullwidth, mathematical, circled) mapped to the
    /// ASCII letters they imitate, and everything else dropped.
    ///
    /// `"[ЕND оf  notes\u{200B} OUTPUT]"` and `"[end of notes output]"` have the same skeleton,
    /// `"endofnotesoutput"`.
    public static func skeleton(_ text: some StringProtocol) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let folded = folded(scalar) { result.append(folded) }
        }
        return String(result)
    }

    /// The ASCII lowercase letter or digit `scalar` stands for, if any.
    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        switch value {
        case 0x30...0x39, 0x61...0x7A: return scalar
        case 0x41...0x5A: return Unicode.Scalar(value + 0x20)
        case 0...0x7F: return nil
        case 0xFF10...0xFF19, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            // Fullwidth ASCII.
            return Unicode.Scalar(value - 0xFEE0).flatMap(folded)
        case 0x24B6...0x24CF: return Unicode.Scalar(0x61 + value - 0x24B6)  // Ⓐ–Ⓩ
        case 0x24D0...0x24E9: return Unicode.Scalar(0x61 + value - 0x24D0)  // ⓐ–ⓩ
        case 0x1D400...0x1D6A3:
            // Mathematical alphanumeric letters: styles of 52 letters, A–Z then a–z.
            return Unicode.Scalar(0x61 + (value - 0x1D400) % 52 % 26)
        case 0x1D7CE...0x1D7FF: return Unicode.Scalar(0x30 + (value - 0x1D7CE) % 10)
        default: return confusables[value].flatMap { Unicode.Scalar($0) }
        }
    }

    /// Letters from other scripts that look like ASCII letters (a subset of Unicode's
    /// confusables: the ones that look identical in common fonts).
    private static let confusables: [UInt32: UInt32] = {
        let pairs: [(String, String)] = [
            ("аАɑα", "a"), ("вВΒβ", "b"), ("сСϲς", "c"), ("ԁ", "d"), ("еЕΕε", "e"), ("ғ", "f"), ("ɡ", "g"),
            ("һНΗ", "h"), ("іІΙιӀ", "i"), ("јЈ", "j"), ("кКΚκ", "k"), ("ӏ", "l"), ("мМΜ", "m"), ("ոΝ", "n"),
            ("оОοΟσ০", "o"), ("рРρΡ", "p"), ("ԛ", "q"), ("г", "r"), ("ѕЅ", "s"), ("тТΤτ", "t"), ("υս", "u"),
            ("ѵν", "v"), ("ԝѡ", "w"), ("хХΧχ", "x"), ("уУΥγ", "y"), ("Ζ", "z"), ("ℓ", "l"), ("ı", "i"),
        ]
        var table: [UInt32: UInt32] = [:]
        for (letters, ascii) in pairs {
            guard let target = ascii.unicodeScalars.first?.value else { continue }
            for scalar in letters.unicodeScalars { table[scalar.value] = target }
        }
        return table
    }()

    /// A phrase in untrusted text that reads as an instruction to the model.
    public struct Finding: Hashable, Sendable, CustomStringConvertible {
        /// What kind of instruction it looks like, e.g. "overrides earlier instructions".
        public var kind: String
        /// The phrase as its skeleton matched it.
        public var phrase: String

        public var description: String { "\(kind) (\"\(phrase)\")" }
    }

    /// What a person reviewing a tool should know about its untrusted text: invisible
    /// characters (which the bridge removes) and phrases that read as instructions to the
    /// model (which it does not remove), one line each; empty when there is nothing to say.
    ///
    /// - Parameter fields: The tool's text by field name, e.g. `["name": …, "description": …]`.
    public static func diagnostics(for fields: KeyValuePairs<String, String?>) -> [String] {
        var lines: [String] = []
        for (field, value) in fields {
            guard let value else { continue }
            let invisible = invisibleCount(in: value)
            if invisible > 0 {
                lines.append("the \(field) has \(invisible) invisible or control characters (removed before the model reads it)")
            }
            for finding in instructionFindings(in: value) {
                lines.append("the \(field) reads as an instruction to the model: \(finding)")
            }
        }
        return lines
    }

    /// `schema` with invisible characters removed from every `description` and `title` (the
    /// text the model reads of a parameter); other values, such as `enum` and `pattern`, are
    /// left exactly as they are so validation does not change.
    public static func cleanedDescriptions(in schema: JSONValue) -> JSONValue {
        switch schema {
        case .array(let items):
            return .array(items.map(cleanedDescriptions(in:)))
        case .object(let object):
            var result = JSONObject()
            for (key, value) in object {
                if key == "description" || key == "title", case .string(let text) = value {
                    result[key] = .string(cleaned(text))
                } else {
                    result[key] = cleanedDescriptions(in: value)
                }
            }
            return .object(result)
        default:
            return schema
        }
    }

    /// Every `description` string in `schema` (parameter descriptions), in document order.
    public static func descriptions(in schema: JSONValue) -> [String] {
        switch schema {
        case .array(let items):
            return items.flatMap(descriptions(in:))
        case .object(let object):
            return object.flatMap { key, value -> [String] in
                if key == "description", case .string(let text) = value { return [text] }
                return descriptions(in: value)
            }
        default:
            return []
        }
    }

    /// What in `text` reads as an order to the model that serves someone other than the
    /// user: overriding earlier instructions, hiding something from the user, sending data
    /// somewhere, asking for a secret, shadowing other tools, claiming authority (see
    /// ``instructionFindings(in:otherTools:)``), and text hidden in Unicode tag characters.
    ///
    /// A heuristic that judges what a sentence asks for, in several languages; imperative
    /// but ordinary descriptions ("You must call list_projects first") are not reported.
    public static func instructionFindings(in text: String) -> [Finding] {
        instructionFindings(in: text, otherTools: [])
    }

    /// The findings of ``instructionFindings(in:)``, and a mention of any of `otherTools`
    /// (the names of other servers' tools): a description that names a tool it does not
    /// own is shadowing or steering it.
    public static func instructionFindings(in text: String, otherTools: Set<String>) -> [Finding] {
        var findings = InstructionScanner.findings(in: text, otherTools: otherTools)
        let hidden = text.unicodeScalars.filter { (0xE0000...0xE007F).contains($0.value) }.count
        if hidden > 0 {
            findings.append(Finding(kind: "hides text in Unicode tag characters", phrase: "\(hidden) tag characters"))
        }
        return findings
    }
}
