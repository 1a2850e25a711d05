/// What a boxed server's failure says about its box: the permission it was most likely
/// refused, read from what it wrote to standard error, and how to grant it.
///
/// A box denial rarely looks like one: a server says "Permission denied" (or "os error 13",
/// "EACCES", "Operation not permitted") about a file, "Temporary failure in name resolution"
/// or "Network is unreachable" about the network, "certificate verify failed" when it cannot
/// read the system's certificates. `ProcessTransport` adds this to the error of a boxed
/// server that ended, and `ondevice-mcp` names the option that would help.
///
/// ```swift
/// if let denial = SandboxDenial(standardError: transport.capturedStandardError()) {
///     print(denial)   // "it ran in a box, which may have refused it: …"
/// }
/// ```
public struct SandboxDenial: Hashable, Sendable, CustomStringConvertible {
    /// The kind of permission.
    public enum Kind: Hashable, Sendable {
        /// Reading (or writing) a file: the path when the message names one.
        case fileAccess(path: String?)
        /// The network: connecting, resolving a name.
        case network
        /// The certificate store for TLS (pass `SSL_CERT_FILE`/`SSL_CERT_DIR`, or allow
        /// reading the store).
        case certificates
    }

    /// The permission the server was most likely refused.
    public let kind: Kind
    /// The line of standard error it was read from.
    public let evidence: String

    /// Reads a boxed server's standard error (its last 16 KiB); `nil` when nothing in it looks
    /// like a refusal of the box.
    public init?(standardError: String) {
        let lines = standardError.utf8.count > 16_384 ? String(standardError.suffix(16_384)) : standardError
        var found: (kind: Kind, evidence: String, rank: Int)?
        for line in lines.split(whereSeparator: \.isNewline).map(String.init) {
            let lower = line.lowercased()
            let candidate: (Kind, Int)?
            if Self.certificateMarkers.contains(where: lower.contains) {
                candidate = (.certificates, 3)
            } else if Self.networkMarkers.contains(where: lower.contains) {
                candidate = (.network, 2)
            } else if Self.denialMarkers.contains(where: lower.contains) {
                if Self.socketWords.contains(where: lower.contains) && Self.path(in: line) == nil {
                    candidate = (.network, 2)
                } else {
                    candidate = (.fileAccess(path: Self.path(in: line)), Self.path(in: line) == nil ? 0 : 1)
                }
            } else {
                candidate = nil
            }
            if let (kind, rank) = candidate, rank >= (found?.rank ?? -1) {
                found = (kind, line.trimmingWhitespace(), rank)
            }
        }
        guard let found else { return nil }
        kind = found.kind
        evidence = found.evidence
    }

    /// The denial in words, with the ``Sandbox`` property that would grant it.
    public var description: String {
        let advice: String
        switch kind {
        case .fileAccess(let path?): advice = "to let it read \(path), add it to Sandbox.readablePaths (or writablePaths)"
        case .fileAccess(nil): advice = "a path it needs may be missing from Sandbox.readablePaths or writablePaths"
        case .network: advice = "it needs the network: Sandbox.allowsNetwork"
        case .certificates:
            advice =
                "it cannot read the TLS certificate store: pass SSL_CERT_FILE and SSL_CERT_DIR (Sandbox.passedEnvironment) or allow reading the store"
        }
        return "it ran in a box, which may have refused it (\"\(evidence.prefix(200))\"): \(advice)"
    }

    static let denialMarkers = [
        "permission denied", "eacces", "eperm", "operation not permitted", "os error 13", "errno 13", "os error 1)",
    ]
    static let networkMarkers = [
        "temporary failure in name resolution", "name or service not known", "network is unreachable", "could not resolve host",
        "getaddrinfo", "eai_again", "enetunreach", "nodename nor servname", "no address associated with hostname",
    ]
    static let socketWords = ["socket", "connect", "http", "tcp", "urlopen", "fetch", "dns"]
    static let certificateMarkers = [
        "certificate verify failed", "certificate_verify_failed", "unable to get local issuer certificate", "unable_to_get_issuer_cert",
        "invalid peer certificate", "unknownissuer",
    ]

    /// The absolute path (or `~/…`) of a line nearest to its denial marker (the one the
    /// refusal is about: "X: Permission denied", "Permission denied: 'X'"), without the quotes
    /// and punctuation around it.
    static func path(in line: String) -> String? {
        let separators: Set<Character> = [" ", "\t", "'", "\"", "`", "(", ")", "[", "]", ",", ";", "="]
        let lower = Array(line.lowercased())
        let marker = denialMarkers.compactMap { Self.offset(of: Array($0), in: lower) }.min()
        var best: (path: String, distance: Int)?
        var offset = 0
        for token in line.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) }) {
            defer { offset += token.count + 1 }
            var word = Substring(token)
            while let last = word.last, [":", ".", ","].contains(last) { word = word.dropLast() }
            guard (word.hasPrefix("/") || word.hasPrefix("~/")) && word.count > 1 && !word.hasPrefix("//") else { continue }
            let distance = marker.map { abs($0 - offset) } ?? 0
            if best == nil || distance < (best?.distance ?? 0) { best = (String(word), distance) }
        }
        return best?.path
    }

    /// Where `needle` first occurs in `haystack`, in characters.
    private static func offset(of needle: [Character], in haystack: [Character]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
