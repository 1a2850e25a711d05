public import MCPCore

/// Finds secrets in text and replaces them with a visible mark such as `[redacted: api key]`.
///
/// Two kinds of secret are found:
/// - **values the app configures** (``init(secrets:detectsWellKnownShapes:)``), such as the
///   token of the app's own account, in any case;
/// - **well-known shapes** (on by default): API keys (`sk-…`, `sk_live_…`, `AIza…`),
///   AWS access key ids (`AKIA…`, `ASIA…`), GitHub tokens (`ghp_…`, `github_pat_…`), Slack
///   tokens (`xoxb-…`), bearer tokens (`Bearer …`), JSON Web Tokens (`eyJ….….…`) and
///   private-key PEM blocks (`-----BEGIN … PRIVATE KEY-----` to its `END` line).
///
/// Both are found as a reader could rebuild them: across invisible characters (a zero-width
/// space or a soft hyphen inside a token), Unicode tag characters, fullwidth and look-alike
/// letters; reversed; percent-encoded; in base64 (standard or URL-safe, at any alignment) or
/// hex (with separators or `0x` prefixes); as character codes. A configured value is also
/// found spelled out with separators (`a c c t - t o k`), and a run of 8 or more of its
/// letters and digits is redacted as a part of it. The mark says the form
/// (`[redacted: account token (base64)]`). Parts shorter than that, spread over several
/// calls, are counted by the ``DataFlowGuard``.
///
/// The bridge redacts tool output (after removing invisible characters) before the model
/// reads it, the arguments every server receives (keys too) before the approver sees them,
/// and the text of ``DefenceEvent``s. Redaction is never silent: the mark names what was
/// removed, and the result says how many of each kind.
///
/// - Complexity: Linear in the text for each view (the text, its reversal and what its
///   escapes, base64 and hex runs and numbers decode to), plus one search per configured
///   value in each; no regular expressions, so no catastrophic backtracking.
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
    ///
    /// Secrets are found as a reader could rebuild them (see the type's overview): a secret
    /// broken by invisible characters is found and replaced with the characters inside it, so
    /// removing invisible characters later cannot rebuild it.
    public func redact(_ text: String) -> Result {
        let original = Array(text.unicodeScalars)
        let found = SecretScan(secrets: secrets, findsShapes: detectsWellKnownShapes).findings(in: original)
        guard !found.isEmpty else { return Result(text: text, kinds: []) }
        var scalars = String.UnicodeScalarView()
        var copied = 0
        for finding in found {
            scalars.append(contentsOf: original[copied..<finding.range.lowerBound])
            scalars.append(contentsOf: Self.mark(finding.kind).unicodeScalars)
            copied = finding.range.upperBound
        }
        scalars.append(contentsOf: original[copied...])
        return Result(text: String(scalars), kinds: found.map(\.kind))
    }

    /// `value` with every string in it redacted, object keys too; `kinds` collects what was removed.
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

    /// `object` with every string in it redacted, keys too; `kinds` collects what was removed.
    public func redact(_ object: JSONObject, kinds: inout [String]) -> JSONObject {
        var result = JSONObject()
        for (key, value) in object {
            let redactedKey = redact(key)
            kinds += redactedKey.kinds
            result[redactedKey.text] = redact(value, kinds: &kinds)
        }
        return result
    }
}

extension SecretRedactor {
    /// The secrets of well-known shapes in `text`, as values with their kind as the label.
    static func shapedSecrets(in text: String) -> [Secret] {
        let bytes = Array(text.utf8)
        return ShapeScanner.matches(in: bytes).map { match in
            Secret(String(decoding: bytes[match.range], as: UTF8.self), label: match.kind)
        }
    }

    /// A configured secret's parts found in arguments, for the data-flow guard's count.
    struct PartsLabel: Hashable, Sendable {
        var key: String
        var label: String
        var threshold: Int
    }

    /// The parts of configured secrets in `arguments` (keys and strings, numbers as text):
    /// which characters of each secret's letters and digits they hold, in any view.
    func secretParts(in arguments: JSONObject) -> [(label: PartsLabel, parts: Set<Int>)] {
        let scan = SecretScan(secrets: secrets, findsShapes: false)
        guard !scan.needles.isEmpty else { return [] }
        var leaves: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .string(let text): leaves.append(text)
            case .int, .double: leaves.append(value.description)
            case .array(let items): items.forEach(collect)
            case .object(let object):
                for (key, item) in object {
                    leaves.append(key)
                    collect(item)
                }
            default: break
            }
        }
        collect(.object(arguments))
        var covered: [Int: Set<Int>] = [:]
        // Each leaf alone, and all of them joined: a secret split between two arguments.
        for text in leaves + [leaves.joined(), leaves.joined(separator: ",")] {
            for (index, parts) in scan.parts(in: Array(text.unicodeScalars)) { covered[index, default: []].formUnion(parts) }
        }
        return covered.sorted { $0.key < $1.key }.map { index, parts in
            let needle = scan.needles[index]
            let length = needle.alphanumerics.count
            let label = PartsLabel(
                key: String(String.UnicodeScalarView(needle.folded.compactMap(Unicode.Scalar.init))), label: needle.label,
                threshold: max(SecretScan.partLength, (length * 3 + 4) / 5))
            return (label, parts)
        }
    }
}
