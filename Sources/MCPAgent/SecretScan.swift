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
            for (start, key) in Self.rollingKeys(needle.alphanumerics, length: length).enumerated() { positions[key, default: []].append(start) }
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

    // MARK: Views

    /// `original` as a reader sees it: invisible characters dropped, Unicode tag characters
    /// read as the ASCII they spell, fullwidth forms and look-alike letters read as ASCII.
    static func fold(_ original: [Unicode.Scalar]) -> View {
        if original.allSatisfy({ (0x20...0x7E).contains($0.value) || $0 == "\n" || $0 == "\t" }) {
            return View(identity: original.map(\.value))
        }
        var view = View(form: "")
        view.scalars.reserveCapacity(original.count)
        for (index, scalar) in original.enumerated() {
            let value = scalar.value
            if (0xE0020...0xE007E).contains(value) {
                view.append(value - 0xE0000, from: index..<(index + 1))
            } else if UntrustedText.isInvisible(scalar) {
                continue
            } else if (0xFF01...0xFF5E).contains(value) {
                view.append(value - 0xFEE0, from: index..<(index + 1))
            } else {
                view.append(lookalikes[value] ?? value, from: index..<(index + 1))
            }
        }
        return view
    }

    /// The folded text and what it decodes to: percent escapes, base64 runs (both alphabets,
    /// every alignment), hex runs (with or without separators), character codes.
    ///
    /// Only runs that can hold `shortest` bytes are decoded.
    static func decodedViews(of folded: View, shortest: Int) -> [View] {
        var views = [folded]
        if folded.scalars.contains(0x25) { views.append(percentDecoded(folded)) }
        views += base64Decoded(folded, shortestRun: max(8, (shortest * 4 + 2) / 3))
        views += hexDecoded(folded, shortestRun: max(12, shortest * 2))
        let codesRun = max(6, shortest)
        if folded.scalars.lazy.filter({ (0x30...0x39).contains($0) }).count >= codesRun, let codes = characterCodes(folded, shortestRun: codesRun) {
            views.append(codes)
        }
        return views
    }

    /// Letters and digits only, lowercased.
    static func alphanumericView(of view: View) -> View {
        var result = View(form: "spelled out")
        for (index, scalar) in view.scalars.enumerated() where isAlphanumeric(scalar) {
            result.append(lower(scalar), from: view.origin(at: index))
        }
        return result
    }

    static func percentDecoded(_ view: View) -> View {
        var result = View(form: "")
        var index = 0
        let scalars = view.scalars
        while index < scalars.count {
            if scalars[index] == 0x25, index + 2 < scalars.count, let high = hexValue(scalars[index + 1]), let low = hexValue(scalars[index + 2]) {
                result.append(high << 4 | low, from: view.origin(at: index).lowerBound..<view.origin(at: index + 2).upperBound)
                index += 3
            } else {
                result.append(scalars[index], from: view.origin(at: index))
                index += 1
            }
        }
        return result
    }

    /// Each run of base64 characters of `shortestRun` or more, decoded from each of its first
    /// four positions (the run may start inside a word), one view per position with the runs
    /// one a line; every decoded byte maps to its group of four characters.
    static func base64Decoded(_ view: View, shortestRun: Int) -> [View] {
        var views = (0..<4).map { _ in View(form: "base64") }
        var start = 0
        let scalars = view.scalars
        while start < scalars.count {
            guard base64Value(scalars[start]) != nil else {
                start += 1
                continue
            }
            var end = start
            while end < scalars.count, base64Value(scalars[end]) != nil { end += 1 }
            if end - start >= shortestRun {
                for offset in 0..<4 {
                    var group: [UInt32] = []
                    var groupStart = start + offset
                    for index in (start + offset)..<end {
                        group.append(base64Value(scalars[index]) ?? 0)
                        if group.count == 4 {
                            let origin = view.origin(at: groupStart).lowerBound..<view.origin(at: index).upperBound
                            views[offset].append(group[0] << 2 | group[1] >> 4, from: origin)
                            views[offset].append((group[1] & 0xF) << 4 | group[2] >> 2, from: origin)
                            views[offset].append((group[2] & 0x3) << 6 | group[3], from: origin)
                            group = []
                            groupStart = index + 1
                        }
                    }
                    if group.count >= 2 {
                        let origin = view.origin(at: groupStart).lowerBound..<view.origin(at: end - 1).upperBound
                        views[offset].append(group[0] << 2 | group[1] >> 4, from: origin)
                        if group.count == 3 { views[offset].append((group[1] & 0xF) << 4 | group[2] >> 2, from: origin) }
                    }
                    views[offset].append(0x0A, from: view.origin(at: end - 1))
                }
            }
            start = end
        }
        return views.filter { !$0.scalars.isEmpty }
    }

    /// Runs of `shortestRun` hex digits or more (separators `:`, `-`, `,`, `.`, spaces and
    /// `0x`/`\x` prefixes between pairs allowed), decoded from both alignments, one view per
    /// alignment with the runs one a line.
    static func hexDecoded(_ view: View, shortestRun: Int) -> [View] {
        var views = [View(form: "hex"), View(form: "hex")]
        var current: [(value: UInt32, origin: Range<Int>)] = []
        let scalars = view.scalars
        func close() {
            if current.count >= shortestRun {
                for offset in 0..<2 {
                    var position = offset
                    while position + 1 < current.count {
                        views[offset].append(
                            current[position].value << 4 | current[position + 1].value,
                            from: current[position].origin.lowerBound..<current[position + 1].origin.upperBound)
                        position += 2
                    }
                    if let last = current.last { views[offset].append(0x0A, from: last.origin) }
                }
            }
            current = []
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            // `0x` and `\x` prefixes: skip them.
            if scalar == 0x30 || scalar == 0x5C, index + 1 < scalars.count, scalars[index + 1] == 0x78 || scalars[index + 1] == 0x58 {
                index += 2
                continue
            }
            if let value = hexValue(scalar) {
                current.append((value, view.origin(at: index)))
            } else if ![0x3A, 0x2D, 0x2C, 0x2E, 0x20].contains(scalar) {
                close()
            }
            index += 1
        }
        close()
        return views.filter { !$0.scalars.isEmpty }
    }

    /// Numbers read as character codes (decimal, or hex after `0x`, `\x`, `\u`, `&#x`, `U+`),
    /// when `shortestRun` or more in a row are printable ASCII; `nil` otherwise.
    static func characterCodes(_ view: View, shortestRun: Int) -> View? {
        var decoded = View(form: "character codes")
        var best = View(form: "character codes")
        let scalars = view.scalars
        var index = 0
        func keep() {
            if decoded.scalars.count >= shortestRun {
                for index in decoded.scalars.indices { best.append(decoded.scalars[index], from: decoded.origin(at: index)) }
                best.append(0x0A, from: decoded.origin(at: decoded.scalars.count - 1))
            }
            decoded = View(form: "character codes")
        }
        while index < scalars.count {
            var radix: UInt32 = 10
            var start = index
            let prefixLength = hexPrefixLength(scalars, at: index)
            if prefixLength > 0 {
                radix = 16
                start = index + prefixLength
            }
            var end = start
            var value: UInt32 = 0
            while end < scalars.count, end - start < 8 {
                let digit = radix == 16 ? hexValue(scalars[end]) : decimalValue(scalars[end])
                guard let digit else { break }
                value = value &* radix &+ digit
                end += 1
            }
            if end > start {
                if (0x20...0x7E).contains(value) {
                    decoded.append(value, from: view.origin(at: index).lowerBound..<view.origin(at: end - 1).upperBound)
                } else {
                    keep()
                }
                index = end
            } else {
                if isAlphanumeric(scalars[index]) { keep() }
                index += 1
            }
        }
        keep()
        return best.scalars.isEmpty ? nil : best
    }

    // MARK: Helpers

    static func merged(_ findings: [Finding]) -> [Finding] {
        let sorted = findings.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }.map(\.element)
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
