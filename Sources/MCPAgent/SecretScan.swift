/// Finds secrets in text the way a reader could rebuild them: across invisible characters and
/// look-alike letters, in any case, reversed, percent-encoded, in base64 or hex, as
/// character codes, spelled out with separators, or in parts.
///
/// Every search runs on a *view* of the text: scalars, each mapped back to the range of the
/// original scalars it came from, so a match in a decoded view redacts the original text it
/// was decoded from. Views are built in one pass each; matching is a plain search per secret
/// (no regular expressions, no backtracking).
struct SecretScan {
    /// A secret as the scan looks for it.
    struct Needle {
        let label: String
        /// The value folded and lowercased.
        let folded: [UInt32]
        /// Its letters and digits only, lowercased.
        let alphanumerics: [UInt32]
    }

    /// Text with every scalar's origin in the original.
    struct View {
        /// Where each scalar came from: itself (the common case, stored as nothing), itself
        /// read backwards, or a range per scalar.
        enum Mapping {
            case identity
            case reversed(count: Int)
            case ranges([Range<Int>])
        }

        var scalars: [UInt32] = []
        var mapping = Mapping.ranges([])
        /// How the view was made, for the mark: empty for the text itself.
        var form: String

        init(form: String) {
            self.form = form
        }

        /// The scalars of `original` themselves.
        init(identity original: [UInt32]) {
            scalars = original
            mapping = .identity
            form = ""
        }

        mutating func append(_ scalar: UInt32, from origin: Range<Int>) {
            scalars.append(scalar)
            if case .ranges(var ranges) = mapping {
                mapping = .ranges([])
                ranges.append(origin)
                mapping = .ranges(ranges)
            }
        }

        /// Where the scalar at `index` came from.
        func origin(at index: Int) -> Range<Int> {
            switch mapping {
            case .identity: index..<(index + 1)
            case .reversed(let count): (count - 1 - index)..<(count - index)
            case .ranges(let ranges): ranges[index]
            }
        }

        /// The original range covered by `range` of the view (views run forwards or backwards).
        func origin(of range: Range<Int>) -> Range<Int> {
            let first = origin(at: range.lowerBound)
            let last = origin(at: range.upperBound - 1)
            return min(first.lowerBound, last.lowerBound)..<max(first.upperBound, last.upperBound)
        }

        var reversed: View {
            var view = View(form: form.isEmpty ? "reversed" : "\(form), reversed")
            view.scalars = scalars.reversed()
            switch mapping {
            case .identity: view.mapping = .reversed(count: scalars.count)
            case .reversed: view.mapping = .identity
            case .ranges(let ranges): view.mapping = .ranges(ranges.reversed())
            }
            return view
        }

        /// The view lowercased (ASCII letters).
        var lowercased: [UInt32] { scalars.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 } }

        /// The view as bytes for the shape scanner: ASCII as it is, anything else 0x80.
        var bytes: [UInt8] { scalars.map { $0 < 0x80 ? UInt8($0) : 0x80 } }
    }

    /// A secret found: where in the original, and the mark's kind.
    struct Finding {
        var range: Range<Int>
        var kind: String
    }

    /// The shortest run of a configured secret's letters and digits redacted as a part of it.
    static let partLength = 8

    let needles: [Needle]
    let findsShapes: Bool
    /// The fewest bytes a secret the scan looks for can have: what decoded text must hold.
    var shortestSecret: Int { needles.map(\.folded.count).min().map { min($0, Self.shortestShape) } ?? Self.shortestShape }
    /// The shortest well-known shape (`xoxb-` and 10 characters).
    static let shortestShape = 15

    init(secrets: [SecretRedactor.Secret], findsShapes: Bool) {
        needles = secrets.compactMap { secret in
            let folded = Self.fold(Array(secret.value.unicodeScalars)).scalars.map(Self.lower)
            guard folded.count >= 6 else { return nil }
            return Needle(label: secret.label, folded: folded, alphanumerics: folded.filter(Self.isAlphanumeric))
        }
        self.findsShapes = findsShapes
    }

    // MARK: Finding

    /// Every secret in `original`, the ranges merged, in order.
    func findings(in original: [Unicode.Scalar]) -> [Finding] {
        guard !needles.isEmpty || findsShapes, !original.isEmpty else { return [] }
        let folded = Self.fold(original)
        var found: [Finding] = []
        for view in Self.decodedViews(of: folded, shortest: shortestSecret) {
            search(view, into: &found)
        }
        if !needles.isEmpty { searchParts(Self.alphanumericView(of: folded), into: &found) }
        return Self.merged(found)
    }

    /// Configured secrets (forwards and reversed) and shapes (in the view and reversed) in `view`.
    private func search(_ view: View, into found: inout [Finding]) {
        guard !view.scalars.isEmpty else { return }
        let lower = view.lowercased
        let suffix = view.form.isEmpty ? "" : " (\(view.form))"
        for needle in needles {
            for start in Self.occurrences(of: needle.folded, in: lower) {
                found.append(Finding(range: view.origin(of: start..<(start + needle.folded.count)), kind: needle.label + suffix))
            }
            for start in Self.occurrences(of: needle.folded.reversed(), in: lower) {
                let kind = needle.label + (view.form.isEmpty ? " (reversed)" : " (\(view.form), reversed)")
                found.append(Finding(range: view.origin(of: start..<(start + needle.folded.count)), kind: kind))
            }
        }
        guard findsShapes else { return }
        for candidate in [view, view.reversed] {
            let kindSuffix = candidate.form.isEmpty ? "" : " (\(candidate.form))"
            for match in ShapeScanner.matches(in: candidate.bytes) {
                found.append(Finding(range: candidate.origin(of: match.range), kind: match.kind + kindSuffix))
            }
        }
    }

    /// Runs of a configured secret's letters and digits (at least ``partLength``, forwards or
    /// reversed) in the text's letters and digits: the secret spelled out, or a part of it.
    private func searchParts(_ view: View, into found: inout [Finding]) {
        let length = Self.partLength
        guard view.scalars.count >= length else { return }
        let keys = Self.rollingKeys(view.scalars, length: length)
        for needle in needles {
            let secret = needle.alphanumerics
            if secret.count < length {
                for start in Self.occurrences(of: secret, in: view.scalars) where !secret.isEmpty {
                    found.append(Finding(range: view.origin(of: start..<(start + secret.count)), kind: needle.label + " (spelled out)"))
                }
                continue
            }
            for (candidate, kind) in [(secret, needle.label + " (part)"), (Array(secret.reversed()), needle.label + " (part, reversed)")] {
                let grams = Set(Self.rollingKeys(candidate, length: length))
                var start = 0
                while start < keys.count {
                    guard grams.contains(keys[start]) else {
                        start += 1
                        continue
                    }
                    var end = start + 1
                    while end < keys.count, grams.contains(keys[end]) { end += 1 }
                    found.append(Finding(range: view.origin(of: start..<(end - 1 + length)), kind: kind))
                    start = end
                }
            }
        }
    }

    /// Which characters of each configured secret (by index into its letters and digits)
    /// `original` holds in runs of at least `length`, in any view.
    func parts(in original: [Unicode.Scalar], length: Int = 4) -> [Int: Set<Int>] {
        guard !needles.isEmpty, !original.isEmpty else { return [:] }
        let views = Self.decodedViews(of: Self.fold(original), shortest: length).map { Self.alphanumericView(of: $0).scalars }
        let viewKeys = views.map { Self.rollingKeys($0, length: length) }
        var result: [Int: Set<Int>] = [:]
        for (index, needle) in needles.enumerated() where needle.alphanumerics.count >= length {
            var positions: [UInt64: [Int]] = [:]
            for (start, key) in Self.rollingKeys(needle.alphanumerics, length: length).enumerated() {
                positions[key, default: []].append(start)
            }
            for (start, key) in Self.rollingKeys(Array(needle.alphanumerics.reversed()), length: length).enumerated() {
                // A gram read backwards: its position in the secret read forwards.
                positions[key, default: []].append(needle.alphanumerics.count - length - start)
            }
            var covered: Set<Int> = []
            for keys in viewKeys {
                for key in keys {
                    for position in positions[key] ?? [] { covered.formUnion(position..<(position + length)) }
                }
            }
            if !covered.isEmpty { result[index] = covered }
        }
        return result
    }

    /// The key of every run of `length` letters and digits in `scalars` (lowercase ASCII
    /// letters and digits, 6 bits each), in order.
    static func rollingKeys(_ scalars: [UInt32], length: Int) -> [UInt64] {
        guard scalars.count >= length, length <= 10 else { return [] }
        let mask: UInt64 = (1 << UInt64(6 * length)) - 1
        var keys: [UInt64] = []
        keys.reserveCapacity(scalars.count - length + 1)
        var key: UInt64 = 0
        for (index, scalar) in scalars.enumerated() {
            let symbol: UInt64 = (0x30...0x39).contains(scalar) ? UInt64(scalar - 0x30) : UInt64(scalar &- 0x61) & 0x3F + 10
            key = (key << 6 | symbol) & mask
            if index >= length - 1 { keys.append(key) }
        }
        return keys
    }

    // MARK: Helpers

    static func merged(_ findings: [Finding]) -> [Finding] {
        let sorted = findings.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }
            .map(\.element)
        var result: [Finding] = []
        for finding in sorted {
            if let last = result.last, finding.range.lowerBound < last.range.upperBound {
                result[result.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, finding.range.upperBound)
            } else {
                result.append(finding)
            }
        }
        return result
    }

    static func occurrences(of needle: some Collection<UInt32>, in haystack: [UInt32]) -> [Int] {
        let pattern = Array(needle)
        guard let first = pattern.first, pattern.count <= haystack.count else { return [] }
        var result: [Int] = []
        var start = 0
        while start + pattern.count <= haystack.count {
            if haystack[start] == first, haystack[start..<(start + pattern.count)].elementsEqual(pattern) {
                result.append(start)
                start += pattern.count
            } else {
                start += 1
            }
        }
        return result
    }

    static func lower(_ scalar: UInt32) -> UInt32 { (0x41...0x5A).contains(scalar) ? scalar + 0x20 : scalar }

    static func isAlphanumeric(_ scalar: UInt32) -> Bool {
        (0x30...0x39).contains(scalar) || (0x41...0x5A).contains(scalar) || (0x61...0x7A).contains(scalar)
    }

    static func hexValue(_ scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x30...0x39: scalar - 0x30
        case 0x41...0x46: scalar - 0x41 + 10
        case 0x61...0x66: scalar - 0x61 + 10
        default: nil
        }
    }

    static func decimalValue(_ scalar: UInt32) -> UInt32? {
        (0x30...0x39).contains(scalar) ? scalar - 0x30 : nil
    }

    /// The length of a hex code prefix at `index` (`0x`, `\x`, `\u`, `&#x`, `U+`), or 0.
    static func hexPrefixLength(_ scalars: [UInt32], at index: Int) -> Int {
        guard [0x30, 0x5C, 0x26, 0x75, 0x55].contains(scalars[index]) else { return 0 }
        func at(_ offset: Int) -> UInt32? { index + offset < scalars.count ? lower(scalars[index + offset]) : nil }
        if at(0) == 0x30 || at(0) == 0x5C, at(1) == 0x78 || at(1) == 0x75 { return 2 }
        if at(0) == 0x26, at(1) == 0x23, at(2) == 0x78 { return 3 }
        if at(0) == 0x75, at(1) == 0x2B { return 2 }
        return 0
    }

    /// The value of a base64 character (standard or URL-safe alphabet).
    static func base64Value(_ scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x41...0x5A: scalar - 0x41
        case 0x61...0x7A: scalar - 0x61 + 26
        case 0x30...0x39: scalar - 0x30 + 52
        case 0x2B, 0x2D: 62
        case 0x2F, 0x5F: 63
        default: nil
        }
    }

    /// Letters from other scripts that look like ASCII letters, keeping case.
    static let lookalikes: [UInt32: UInt32] = {
        let pairs: [(String, String)] = [
            ("аеорсхуіѕјԁһӏ", "aeopcxyisjdhl"), ("АВЕКМНОРСТХУІЅЈ", "ABEKMHOPCTXYISJ"),
            ("οαειινυρκτ", "oaeiivupkt"), ("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"),
        ]
        var table: [UInt32: UInt32] = [:]
        for (letters, ascii) in pairs {
            for (letter, target) in zip(letters.unicodeScalars, ascii.unicodeScalars) { table[letter.value] = target.value }
        }
        return table
    }()
}
