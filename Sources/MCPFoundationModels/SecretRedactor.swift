public import MCPCore

/// Finds secrets in text and replaces them with a visible mark such as `[redacted: api key]`.
///
/// Two kinds of secret are found:
/// - **values the app configures** (``init(secrets:detectsWellKnownShapes:)``), such as the
///   token of the app's own account, matched exactly and in their percent-encoded form;
/// - **well-known shapes** (on by default): API keys (`sk-…`, `sk_live_…`, `AIza…`),
///   AWS access key ids (`AKIA…`, `ASIA…`), GitHub tokens (`ghp_…`, `github_pat_…`), Slack
///   tokens (`xoxb-…`), bearer tokens (`Bearer …`), JSON Web Tokens (`eyJ….….…`) and
///   private-key PEM blocks (`-----BEGIN … PRIVATE KEY-----` to its `END` line).
///
/// The bridge redacts tool output before the model reads it, arguments before they go to a
/// server in another process, and the text of ``DefenceEvent``s. Redaction is never silent:
/// the mark names what was removed, and the result says how many of each kind.
///
/// - Complexity: One pass over the UTF-8 bytes with constant work per byte for the shapes
///   (no regular expressions, so no catastrophic backtracking), plus one substring search
///   per configured value.
public struct SecretRedactor: Hashable, Sendable {
    /// A value the app knows is secret, and the name its mark shows.
    public struct Secret: Hashable, Sendable {
        public var value: String
        public var label: String

        /// - Parameters:
        ///   - value: The secret; values shorter than 6 characters are ignored (they would
        ///     match ordinary text).
        ///   - label: What the mark says, e.g. `account token`.
        public init(_ value: String, label: String = "secret") {
            self.value = value
            self.label = label
        }
    }

    /// What a redaction did.
    public struct Result: Hashable, Sendable {
        /// The text with each secret replaced by its mark.
        public var text: String
        /// The kinds removed (`api key`, `jwt`, a configured label), one entry per secret.
        public var kinds: [String]

        /// Whether anything was removed.
        public var redactedAnything: Bool { !kinds.isEmpty }
    }

    /// The values the app configured.
    public var secrets: [Secret]
    /// Whether well-known secret shapes are found too.
    public var detectsWellKnownShapes: Bool

    /// A redactor for `secrets` and (by default) the well-known shapes.
    public init(secrets: [Secret] = [], detectsWellKnownShapes: Bool = true) {
        self.secrets = secrets.filter { $0.value.count >= 6 }
        self.detectsWellKnownShapes = detectsWellKnownShapes
    }

    /// A redactor that removes nothing.
    public static let none = SecretRedactor(detectsWellKnownShapes: false)

    /// The mark that replaces a secret of `kind`.
    public static func mark(_ kind: String) -> String { "[redacted: \(kind)]" }

    /// `text` with every secret replaced by its mark.
    public func redact(_ text: String) -> Result {
        var kinds: [String] = []
        var current = text
        for secret in secrets {
            for form in Set([secret.value, Self.percentEncoded(secret.value)]) where current.contains(form) {
                let count = current.ranges(of: form).count
                current = current.replacing(form, with: Self.mark(secret.label))
                kinds += Array(repeating: secret.label, count: count)
            }
        }
        if detectsWellKnownShapes {
            let (scanned, found) = ShapeScanner.redact(current)
            current = scanned
            kinds += found
        }
        return Result(text: current, kinds: kinds)
    }

    /// `value` with every string in it redacted (object keys are kept); `kinds` collects what was removed.
    public func redact(_ value: JSONValue, kinds: inout [String]) -> JSONValue {
        switch value {
        case .string(let text):
            let result = redact(text)
            kinds += result.kinds
            return .string(result.text)
        case .array(let items):
            return .array(items.map { redact($0, kinds: &kinds) })
        case .object(let object):
            return .object(redact(object, kinds: &kinds))
        default:
            return value
        }
    }

    /// `object` with every string in it redacted; `kinds` collects what was removed.
    public func redact(_ object: JSONObject, kinds: inout [String]) -> JSONObject {
        var result = JSONObject()
        for (key, value) in object {
            result[key] = redact(value, kinds: &kinds)
        }
        return result
    }

    /// `value` with bytes outside the URL-unreserved set written as `%XX`.
    static func percentEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

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
        isKeyCharacter(byte) || [UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(byte)
    }

    static let shapes: [Shape] = {
        func shape(_ prefix: String, _ kind: String, _ minimum: Int, _ alphabet: @escaping @Sendable (UInt8) -> Bool, caseInsensitive: Bool = false)
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
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var kinds: [String] = []
        var index = 0
        var copiedUpTo = 0
        func replace(_ end: Int, kind: String) {
            output += bytes[copiedUpTo..<index]
            output += Array(SecretRedactor.mark(kind).utf8)
            kinds.append(kind)
            index = end
            copiedUpTo = end
        }
        while index < bytes.count {
            let byte = bytes[index]
            let atWordStart = index == 0 || !isKeyCharacter(bytes[index - 1])
            guard atWordStart else {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "-"), let end = pemEnd(bytes, from: index) {
                replace(end, kind: "private key")
                continue
            }
            if byte == UInt8(ascii: "e"), let end = jwtEnd(bytes, from: index) {
                replace(end, kind: "jwt")
                continue
            }
            var matched = false
            for shape in shapes where matches(shape, bytes, at: index) {
                var end = index + shape.prefix.count
                while end < bytes.count, shape.alphabet(bytes[end]) { end += 1 }
                if end - index - shape.prefix.count >= shape.minimum {
                    replace(end, kind: shape.kind)
                    matched = true
                    break
                }
            }
            if !matched { index += 1 }
        }
        guard !kinds.isEmpty else { return (text, []) }
        output += bytes[copiedUpTo...]
        return (String(decoding: output, as: UTF8.self), kinds)
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
