/// A time zone's rules read from a TZif file (RFC 8536), the format of the IANA time zone
/// database's compiled files under `/usr/share/zoneinfo`.
///
/// Versions 1 to 4 are read; from version 2 on, the 64-bit block and the footer (a POSIX
/// `TZ` string for the instants after the last transition) are used. Leap-second records
/// are skipped; zones that carry them (`right/…`) are not offered by ``ZoneDirectory``.
struct ZoneInfo: Hashable, Sendable {
    /// One of the zone's kinds of local time.
    struct LocalTimeType: Hashable, Sendable {
        /// Seconds east of UTC.
        var utcOffset: Int
        var isDaylightSaving: Bool
    }

    /// Why TZif data was rejected.
    struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong with the data.
        let reason: String

        var description: String { "invalid TZif data: \(reason)" }
    }

    /// The instants, in seconds since 1970-01-01T00:00:00Z, at which the local time type
    /// changes, ascending.
    let transitions: [Int64]
    /// For each transition, the index in ``types`` of the local time type that starts then.
    let transitionTypes: [Int]
    /// The local time types; the first one applies before the first transition.
    let types: [LocalTimeType]
    /// The rule after the last transition, or `nil` when the file has none (version 1, or
    /// an empty footer): the last transition's type then stays in effect.
    let footer: POSIXTimeZoneRule?

    /// Coordinated Universal Time, which needs no file.
    static let utc = ZoneInfo(rule: POSIXTimeZoneRule(standardOffset: 0))

    /// A zone described by a POSIX `TZ` rule alone.
    init(rule: POSIXTimeZoneRule) {
        transitions = []
        transitionTypes = []
        types = [LocalTimeType(utcOffset: rule.standardOffset, isDaylightSaving: false)]
        footer = rule
    }

    /// Reads the content of a TZif file.
    ///
    /// - Throws: ``FormatError`` when the data is not TZif, is cut short, or is inconsistent.
    init(tzif bytes: [UInt8]) throws(FormatError) {
        var reader = Reader(bytes: bytes[...])
        let first = try Header(&reader)
        guard first.version >= 2 else {
            (transitions, transitionTypes, types) = try Self.readBlock(&reader, header: first, timeSize: 4)
            footer = nil
            return
        }
        try reader.skip(first.blockSize(timeSize: 4), "the version 1 data block")
        let second = try Header(&reader)
        (transitions, transitionTypes, types) = try Self.readBlock(&reader, header: second, timeSize: 8)
        guard try reader.byte("the footer") == UInt8(ascii: "\n") else {
            throw FormatError(reason: "the footer does not start with a newline")
        }
        var footerBytes: [UInt8] = []
        while true {
            let byte = try reader.byte("the footer")
            if byte == UInt8(ascii: "\n") { break }
            footerBytes.append(byte)
        }
        if footerBytes.isEmpty {
            footer = nil
        } else {
            do {
                footer = try POSIXTimeZoneRule(parsing: String(decoding: footerBytes, as: UTF8.self))
            } catch {
                throw FormatError(reason: "bad footer: \(error)")
            }
        }
    }

    /// The offset east of UTC, in seconds, at `seconds` since 1970-01-01T00:00:00Z.
    func utcOffset(at seconds: Int64) -> Int {
        guard let last = transitions.last, seconds < last else {
            if let footer { return footer.utcOffset(at: seconds) }
            return types[transitionTypes.last ?? 0].utcOffset
        }
        // The last transition at or before `seconds`; before the first one, type 0 applies.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low == 0 ? types[0].utcOffset : types[transitionTypes[low - 1]].utcOffset
    }

    // MARK: Reading

    /// Reads a data block's transitions and local time types, and skips the rest.
    private static func readBlock(
        _ reader: inout Reader, header: Header, timeSize: Int
    ) throws(FormatError) -> ([Int64], [Int], [LocalTimeType]) {
        guard reader.remaining >= header.blockSize(timeSize: timeSize) else {
            throw FormatError(reason: "the data block is cut short")
        }
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.transitionCount)
        for _ in 0..<header.transitionCount {
            let time = timeSize == 8 ? try reader.int64("a transition time") : Int64(try reader.int32("a transition time"))
            if let previous = transitions.last, time <= previous {
                throw FormatError(reason: "transition times are not ascending")
            }
            transitions.append(time)
        }
        var transitionTypes: [Int] = []
        transitionTypes.reserveCapacity(header.transitionCount)
        for _ in 0..<header.transitionCount {
            let index = Int(try reader.byte("a transition type"))
            guard index < header.typeCount else {
                throw FormatError(reason: "a transition names local time type \(index) of \(header.typeCount)")
            }
            transitionTypes.append(index)
        }
        var types: [LocalTimeType] = []
        for _ in 0..<header.typeCount {
            let offset = try reader.int32("a local time type")
            let isDaylightSaving = try reader.byte("a local time type")
            let abbreviationIndex = Int(try reader.byte("a local time type"))
            guard offset != Int32.min, isDaylightSaving <= 1, abbreviationIndex < header.characterCount else {
                throw FormatError(reason: "a local time type is out of range")
            }
            types.append(LocalTimeType(utcOffset: Int(offset), isDaylightSaving: isDaylightSaving == 1))
        }
        let rest =
            header.characterCount + header.leapCount * (timeSize + 4)
            + header.standardIndicatorCount + header.utIndicatorCount
        try reader.skip(rest, "the data block")
        return (transitions, transitionTypes, types)
    }

    /// A TZif header: the magic, the version and the counts of what follows.
    private struct Header {
        var version: Int
        var utIndicatorCount: Int
        var standardIndicatorCount: Int
        var leapCount: Int
        var transitionCount: Int
        var typeCount: Int
        var characterCount: Int

        init(_ reader: inout Reader) throws(FormatError) {
            let magic = try reader.bytes(4, "the header")
            guard magic.elementsEqual("TZif".utf8) else { throw FormatError(reason: "no TZif magic") }
            let versionByte = try reader.byte("the header")
            switch versionByte {
            case 0: version = 1
            case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
            default: throw FormatError(reason: "unknown version byte \(versionByte)")
            }
            try reader.skip(15, "the header")
            var counts: [Int] = []
            for _ in 0..<6 {
                let count = try reader.int32("the header")
                guard count >= 0 else { throw FormatError(reason: "a negative count in the header") }
                counts.append(Int(count))
            }
            (utIndicatorCount, standardIndicatorCount, leapCount) = (counts[0], counts[1], counts[2])
            (transitionCount, typeCount, characterCount) = (counts[3], counts[4], counts[5])
            guard typeCount >= 1, typeCount <= 256, characterCount >= 1 else {
                throw FormatError(reason: "the header counts \(typeCount) local time types and \(characterCount) abbreviation bytes")
            }
            guard utIndicatorCount == 0 || utIndicatorCount == typeCount,
                standardIndicatorCount == 0 || standardIndicatorCount == typeCount
            else {
                throw FormatError(reason: "the header's indicator counts do not match its type count")
            }
        }

        /// The size of the data block that follows the header.
        func blockSize(timeSize: Int) -> Int {
            transitionCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + standardIndicatorCount + utIndicatorCount
        }
    }

    /// Reads big-endian integers from TZif data, failing at its end.
    private struct Reader {
        var bytes: ArraySlice<UInt8>

        var remaining: Int { bytes.count }

        mutating func bytes(_ count: Int, _ what: String) throws(FormatError) -> ArraySlice<UInt8> {
            guard count <= bytes.count else { throw FormatError(reason: "the data ends in \(what)") }
            defer { bytes.removeFirst(count) }
            return bytes.prefix(count)
        }

        mutating func skip(_ count: Int, _ what: String) throws(FormatError) {
            _ = try bytes(count, what)
        }

        mutating func byte(_ what: String) throws(FormatError) -> UInt8 {
            guard let byte = bytes.popFirst() else { throw FormatError(reason: "the data ends in \(what)") }
            return byte
        }

        mutating func int32(_ what: String) throws(FormatError) -> Int32 {
            Int32(bitPattern: UInt32(truncatingIfNeeded: try unsigned(4, what)))
        }

        mutating func int64(_ what: String) throws(FormatError) -> Int64 {
            Int64(bitPattern: try unsigned(8, what))
        }

        private mutating func unsigned(_ size: Int, _ what: String) throws(FormatError) -> UInt64 {
            try bytes(size, what).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
