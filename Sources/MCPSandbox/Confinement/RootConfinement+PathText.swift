internal import MCPCore

extension RootConfinement {
    /// Characters that look like `/` or `\` (U+2215 DIVISION SLASH and its relatives).
    static let slashLookAlikes: Set<UInt32> = [
        0x2215, 0x2044, 0xFF0F, 0x29F8, 0x2571, 0x1735, 0x0338, 0x0337, 0x2216, 0x29F5, 0x29F9, 0xFE68, 0xFF3C,
        0x2572, 0x3033, 0x27CB, 0x27CD,
    ]
    /// Characters that look like `.` (U+FF0E FULLWIDTH FULL STOP, U+2024 ONE DOT LEADER, …).
    static let dotLookAlikes: Set<UInt32> = [
        0xFF0E, 0x2024, 0x2025, 0x2026, 0xFE52, 0x3002, 0xFF61, 0x0701, 0x0702, 0xA60E, 0x10A50, 0x1D16D, 0x2E31, 0x2E33,
        0x00B7, 0x2027, 0x22C5, 0x0660, 0x06F0,
    ]

    /// Whether a scalar is invisible or a formatting control: zero-width characters,
    /// bidirectional controls, the byte-order mark, soft hyphen, variation selectors, tag
    /// characters, C1 controls, and U+FFFD (the mark of a repaired encoding).
    static func isInvisible(_ value: UInt32) -> Bool {
        switch value {
        case 0x80...0x9F, 0xAD, 0x034F, 0x061C, 0x180E, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0xFE00...0xFE0F,
            0xFEFF, 0xFFF9...0xFFFD, 0xE0000...0xE0FFF:
            true
        default:
            false
        }
    }

    /// The components of a path given as bytes, after every text check (see the type's
    /// documentation); `.` and empty components are dropped.
    ///
    /// - Throws: ``ConfinementError/invalidPath``, or ``ConfinementError/escapesRoots`` for `..`.
    static func components(of bytes: [UInt8]) throws(ConfinementError) -> [String] {
        guard !bytes.isEmpty else { throw .invalidPath("the path is empty") }
        guard bytes.count <= maximumPathBytes else {
            throw .invalidPath("the path is longer than \(maximumPathBytes) bytes")
        }
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case 0:
                throw .invalidPath("the path contains a NUL byte")
            case 0x01...0x1F, 0x7F:
                throw .invalidPath("the path contains a control character")
            case UInt8(ascii: "\\"):
                throw .invalidPath("the path contains a backslash; separate components with \"/\"")
            case UInt8(ascii: "%") where index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2]):
                throw .invalidPath("the path contains a percent-encoded byte; give the path itself, not an encoded form")
            default:
                continue
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {
            throw .invalidPath("the path is not valid UTF-8 (or uses an overlong form)")
        }
        for scalar in text.unicodeScalars where scalar.value >= 0x80 {
            if slashLookAlikes.contains(scalar.value) {
                throw .invalidPath("the path contains U+\(hex(scalar.value)), which looks like a slash")
            }
            if dotLookAlikes.contains(scalar.value) {
                throw .invalidPath("the path contains U+\(hex(scalar.value)), which looks like a dot")
            }
            if isInvisible(scalar.value) {
                throw .invalidPath("the path contains the invisible or formatting character U+\(hex(scalar.value))")
            }
        }
        var components: [String] = []
        for component in text.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." { throw .escapesRoots("the path contains \"..\", which is never followed") }
            guard component.utf8.count <= maximumComponentBytes else {
                throw .invalidPath("a component of the path is longer than \(maximumComponentBytes) bytes")
            }
            components.append(String(component))
        }
        return components
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
