// The views a secret scan searches: the text as a reader sees it, and what it decodes to.

extension SecretScan {
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
        if folded.scalars.lazy.filter({ (0x30...0x39).contains($0) }).count >= codesRun,
            let codes = characterCodes(folded, shortestRun: codesRun)
        {
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
            if scalars[index] == 0x25, index + 2 < scalars.count, let high = hexValue(scalars[index + 1]),
                let low = hexValue(scalars[index + 2])
            {
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
}
