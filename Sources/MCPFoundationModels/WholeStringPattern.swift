/// Rewrites a JSON Schema `pattern` into the pattern a generation guide needs.
///
/// The two differ in what they match. JSON Schema's `pattern` is an ECMA-262 regular
/// expression that matches anywhere in a string: `"@"` accepts `"me@example.com"`. A
/// generation guide's pattern (`GenerationGuide.pattern(_:)`) constrains the whole string:
/// the same `"@"` would allow only the string `"@"`. So a pattern is rewritten into its
/// whole-string equivalent before it becomes a guide:
///
/// | JSON Schema `pattern` | Whole-string pattern |
/// |---|---|
/// | `abc` | `[\s\S]*(?:abc)[\s\S]*` |
/// | `^abc` | `(?:abc)[\s\S]*` |
/// | `abc$` | `[\s\S]*(?:abc)` |
/// | `^abc$` | `abc` |
/// | `^a\|b$` | `(?:a)[\s\S]*\|[\s\S]*(?:b)` (each top-level alternative on its own) |
/// | (empty) | `[\s\S]*` |
///
/// Only a `^` at the start or a `$` at the end of a top-level alternative is an anchor at
/// an end; escaped `\^` and `\$` and the `^` and `$` of a character class (`[^x]`, `[$]`)
/// are not anchors at all. Dropping a final `$` also keeps ECMA-262's meaning: there `$`
/// (without the `m` flag) matches only at the end of the input, not before a trailing
/// newline as Swift's `$` does, and the guide's whole-string match ends at the end of the input.
///
/// A few ECMA-262 spellings that Swift's `Regex` reads differently are translated on the
/// way: `\d`, `\w` (and `\D`, `\W`) match ASCII only, `.` excludes exactly ECMA-262's line
/// terminators, `[]` matches nothing and `[^]` anything, and inside a character class `[`,
/// `&` and `~` are literal and `\b` is a backspace.
///
/// A pattern whose meaning cannot be kept is not rewritten: one with an anchor anywhere else
/// (`a^b`, `(^a|b)`, `(?<=^|,)x`), a `--`, `&&` or `~~` inside a character class (literal
/// characters or a range in ECMA-262, set operators in Swift), or malformed syntax. The lowering then leaves the guide out and
/// reports a diagnostic; the arguments are still validated against the original pattern.
enum WholeStringPattern {
    /// Why a pattern cannot be rewritten.
    struct Failure: Error, Equatable, CustomStringConvertible {
        /// What stands in the way, as a clause ("it has an unmatched '('").
        let reason: String
        /// The pattern is malformed, rather than well-formed with a meaning a guide cannot keep.
        var isMalformed = false

        var description: String { reason }
    }

    /// Any string: the padding that makes an unanchored side match anywhere.
    static let anything = #"[\s\S]*"#

    /// The whole-string equivalent of the ECMA-262 `pattern`, in Swift `Regex` syntax.
    ///
    /// - Throws: ``Failure`` when the pattern has anchors that are not at the ends of a
    ///   top-level alternative, or syntax that cannot be carried over safely.
    static func rewrite(_ pattern: String) throws(Failure) -> String {
        var scanner = Scanner(Array(pattern.unicodeScalars))
        let alternatives = try scanner.scan()
        var rewritten: [String] = []
        for alternative in alternatives {
            rewritten.append(try anchored(alternative))
        }
        return rewritten.joined(separator: "|")
    }

    /// One top-level alternative as a whole-string pattern.
    private static func anchored(_ alternative: [Piece]) throws(Failure) -> String {
        var pieces = alternative[...]
        var startsAnchored = false
        var endsAnchored = false
        while case .anchor(.start, depth: 0)? = pieces.first {
            pieces.removeFirst()
            startsAnchored = true
        }
        while case .anchor(.end, depth: 0)? = pieces.last {
            pieces.removeLast()
            endsAnchored = true
        }
        var body = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                body += text
            case .anchor(let kind, _):
                let symbol = kind == .start ? "^" : "$"
                throw Failure(
                    reason:
                        "the anchor \(symbol) inside it is not at the start or end of the pattern, which a whole-string guide cannot express"
                )
            }
        }
        if startsAnchored && endsAnchored { return body }
        if body.isEmpty { return anything }
        return (startsAnchored ? "" : anything) + "(?:" + body + ")" + (endsAnchored ? "" : anything)
    }

    /// A piece of a scanned pattern: Swift regex text, or an anchor at a group depth.
    private enum Piece {
        case text(String)
        case anchor(AnchorKind, depth: Int)
    }

    private enum AnchorKind {
        case start
        case end
    }

    /// ECMA-262's line terminators, which its `.` does not match.
    private static let dot = #"[^\n\r\u{2028}\u{2029}]"#

    /// Splits a pattern into top-level alternatives, translating ECMA-262 spellings into
    /// Swift's and marking the anchors.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var position = 0
        var depth = 0
        var alternatives: [[Piece]] = [[]]

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        mutating func scan() throws(Failure) -> [[Piece]] {
            while position < scalars.count {
                let scalar = scalars[position]
                switch scalar {
                case "\\":
                    append(try escape(inClass: false))
                case "[":
                    append(try characterClass())
                case "(":
                    depth += 1
                    append("(")
                    position += 1
                case ")":
                    depth -= 1
                    guard depth >= 0 else { throw Failure(reason: "it has an unmatched ')'", isMalformed: true) }
                    append(")")
                    position += 1
                case "|" where depth == 0:
                    alternatives.append([])
                    position += 1
                case "^":
                    alternatives[alternatives.count - 1].append(.anchor(.start, depth: depth))
                    position += 1
                case "$":
                    alternatives[alternatives.count - 1].append(.anchor(.end, depth: depth))
                    position += 1
                case ".":
                    append(WholeStringPattern.dot)
                    position += 1
                default:
                    append(String(scalar))
                    position += 1
                }
            }
            guard depth == 0 else { throw Failure(reason: "it has an unmatched '('", isMalformed: true) }
            return alternatives
        }

        mutating func append(_ text: String) {
            let last = alternatives.count - 1
            if case .text(let previous)? = alternatives[last].last {
                alternatives[last][alternatives[last].count - 1] = .text(previous + text)
            } else {
                alternatives[last].append(.text(text))
            }
        }

        /// The escape at `position` (a backslash) in Swift's syntax; moves past it.
        mutating func escape(inClass: Bool) throws(Failure) -> String {
            guard position + 1 < scalars.count else { throw Failure(reason: "it ends with a lone backslash", isMalformed: true) }
            let escaped = scalars[position + 1]
            position += 2
            switch escaped {
            case "d": return inClass ? "0-9" : "[0-9]"
            case "D": return "[^0-9]"
            case "w": return inClass ? "A-Za-z0-9_" : "[A-Za-z0-9_]"
            case "W": return "[^A-Za-z0-9_]"
            case "b" where inClass: return #"\u{8}"#
            default: return "\\" + String(escaped)
            }
        }

        /// The character class at `position` (a `[`) in Swift's syntax; moves past it.
        mutating func characterClass() throws(Failure) -> String {
            position += 1
            var negated = false
            if position < scalars.count, scalars[position] == "^" {
                negated = true
                position += 1
            }
            // In ECMA-262 a `]` right after `[` or `[^` closes the class: `[]` matches
            // nothing and `[^]` any character.
            if position < scalars.count, scalars[position] == "]" {
                position += 1
                return negated ? #"[\s\S]"# : #"[^\s\S]"#
            }
            var items = ""
            while position < scalars.count {
                let scalar = scalars[position]
                switch scalar {
                case "]":
                    position += 1
                    return "[" + (negated ? "^" : "") + items + "]"
                case "\\":
                    items += try escape(inClass: true)
                case _ where "-&~".unicodeScalars.contains(scalar) && position + 1 < scalars.count && scalars[position + 1] == scalar:
                    // `--`, `&&` and `~~` are set operators in Swift (and Swift prints even
                    // escaped `\&\&` back as `&&`).
                    throw Failure(reason: "its character class has '\(scalar)\(scalar)', which Swift reads as a set operator")
                case "[", "&", "~":
                    // Literal in ECMA-262; a nested class or set operator in Swift.
                    items += "\\" + String(scalar)
                    position += 1
                default:
                    items += String(scalar)
                    position += 1
                }
            }
            throw Failure(reason: "it has an unterminated character class", isMalformed: true)
        }
    }
}
