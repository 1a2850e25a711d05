/// A JSON Pointer (RFC 6901): the location of a value inside a JSON document.
///
/// A pointer is a list of reference tokens: object keys, or array indices written in
/// decimal. Its text form joins them with `/`, escaping `~` as `~0` and `/` as `~1`; the
/// empty pointer `""` is the whole document.
///
/// ```swift
/// let pointer = JSONPointer(tokens: ["properties", "a/b"])
/// pointer.description          // "/properties/a~1b"
/// try JSONPointer(parsing: "/items/0").tokens   // ["items", "0"]
/// ```
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The unescaped reference tokens, from the root down.
    public var tokens: [String]

    /// Creates a pointer from unescaped reference tokens (the root when empty).
    public init(tokens: [String] = []) {
        self.tokens = tokens
    }

    /// Parses a pointer's text form.
    ///
    /// - Throws: ``JSONPointer/ParseError`` when the text is not empty and does not start
    ///   with `/`, or has a `~` not followed by `0` or `1`.
    public init(parsing text: String) throws(ParseError) {
        guard !text.isEmpty else {
            self.init()
            return
        }
        guard text.hasPrefix("/") else { throw ParseError(text: text) }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                guard character == "~" else {
                    token.append(character)
                    continue
                }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw ParseError(text: text)
                }
            }
            tokens.append(token)
        }
        self.init(tokens: tokens)
    }

    /// Text that is not a JSON Pointer.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text that could not be parsed.
        public let text: String

        public var description: String {
            "\"\(text)\" is not a JSON Pointer: it must be empty or start with '/', and '~' must be followed by '0' or '1'"
        }
    }

    /// The pointer's text form, with `~` and `/` inside tokens escaped.
    public var description: String {
        var result = ""
        for token in tokens {
            result.append("/")
            if token.contains("~") || token.contains("/") {
                for character in token {
                    switch character {
                    case "~": result.append("~0")
                    case "/": result.append("~1")
                    default: result.append(character)
                    }
                }
            } else {
                result.append(token)
            }
        }
        return result
    }

    /// This pointer extended by one token.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// This pointer extended by one array index.
    public func appending(_ index: Int) -> JSONPointer {
        JSONPointer(tokens: tokens + [String(index)])
    }

    /// Whether this is the root pointer (no tokens).
    public var isRoot: Bool { tokens.isEmpty }
}

extension JSONValue {
    /// The value that `pointer` locates inside this one, if it exists.
    public subscript(pointer pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let elements):
                // RFC 6901: decimal without leading zeros.
                guard let index = Int(token), index >= 0, index < elements.count,
                    token == "0" || !token.hasPrefix("0")
                else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
