import Foundation
import Testing

@testable import OnDeviceMCPExamples

// Expected offsets were checked once with glibc: `TZ=<zone> date -d @<seconds> +%::z`
// (tzdata 2025b), for instants that later releases are unlikely to change.

/// An instant in a zone and the offset glibc's `date` gives there.
struct OffsetCase: Sendable, CustomTestStringConvertible {
    /// A zone name, or a POSIX `TZ` string.
    let zone: String
    /// The instant in UTC, `2026-03-29T01:00:00Z`.
    let utc: String
    let seconds: Int64
    /// `+hh:mm:ss` east of UTC.
    let offset: String

    init(_ zone: String, _ utc: String, _ seconds: Int64, _ offset: String) {
        (self.zone, self.utc, self.seconds, self.offset) = (zone, utc, seconds, offset)
    }

    var testDescription: String { "\(zone) at \(utc) is \(offset)" }

    /// `offset` in seconds.
    var offsetSeconds: Int {
        let sign = offset.hasPrefix("-") ? -1 : 1
        let parts = offset.dropFirst().split(separator: ":").compactMap { Int($0) }
        return sign * (parts[0] * 3_600 + parts[1] * 60 + parts[2])
    }
}

/// Whether the system has a zoneinfo directory to read.
let hasZoneInfo = ["/usr/share/zoneinfo/Europe/Berlin", "/var/db/timezone/zoneinfo/Europe/Berlin"].contains {
    FileManager.default.fileExists(atPath: $0)
}

@Suite("Time zones from TZif files")
struct ZoneInfoTests {
    static let systemCases: [OffsetCase] = [
        // Daylight-saving edges.
        OffsetCase("Europe/Berlin", "2026-03-29T00:59:59Z", 1_774_745_999, "+01:00:00"),
        OffsetCase("Europe/Berlin", "2026-03-29T01:00:00Z", 1_774_746_000, "+02:00:00"),
        OffsetCase("Europe/Berlin", "2026-10-25T00:59:59Z", 1_792_889_999, "+02:00:00"),
        OffsetCase("Europe/Berlin", "2026-10-25T01:00:00Z", 1_792_890_000, "+01:00:00"),
        OffsetCase("America/New_York", "2026-03-08T06:59:59Z", 1_772_953_199, "-05:00:00"),
        OffsetCase("America/New_York", "2026-03-08T07:00:00Z", 1_772_953_200, "-04:00:00"),
        OffsetCase("America/New_York", "2026-11-01T05:59:59Z", 1_793_512_799, "-04:00:00"),
        OffsetCase("America/New_York", "2026-11-01T06:00:00Z", 1_793_512_800, "-05:00:00"),
        // Lord Howe Island moves its clocks by 30 minutes.
        OffsetCase("Australia/Lord_Howe", "2026-04-04T14:59:59Z", 1_775_314_799, "+11:00:00"),
        OffsetCase("Australia/Lord_Howe", "2026-04-04T15:00:00Z", 1_775_314_800, "+10:30:00"),
        OffsetCase("Australia/Lord_Howe", "2026-10-03T15:29:59Z", 1_791_041_399, "+10:30:00"),
        OffsetCase("Australia/Lord_Howe", "2026-10-03T15:30:00Z", 1_791_041_400, "+11:00:00"),
        OffsetCase("Australia/Adelaide", "2026-04-04T16:29:59Z", 1_775_320_199, "+10:30:00"),
        OffsetCase("Australia/Adelaide", "2026-04-04T16:30:00Z", 1_775_320_200, "+09:30:00"),
        OffsetCase("Australia/Adelaide", "2026-10-03T16:29:59Z", 1_791_044_999, "+09:30:00"),
        OffsetCase("Australia/Adelaide", "2026-10-03T16:30:00Z", 1_791_045_000, "+10:30:00"),
        OffsetCase("Asia/Kathmandu", "1985-12-31T18:29:59Z", 504_901_799, "+05:30:00"),
        OffsetCase("Asia/Kathmandu", "1985-12-31T18:30:00Z", 504_901_800, "+05:45:00"),
        OffsetCase("Asia/Kathmandu", "2026-11-29T14:03:12Z", 1_795_960_992, "+05:45:00"),
        // Brazil's daylight-saving time, abolished in 2019.
        OffsetCase("America/Sao_Paulo", "2018-11-04T02:59:59Z", 1_541_300_399, "-03:00:00"),
        OffsetCase("America/Sao_Paulo", "2018-11-04T03:00:00Z", 1_541_300_400, "-02:00:00"),
        OffsetCase("America/Sao_Paulo", "2019-02-17T01:59:59Z", 1_550_368_799, "-02:00:00"),
        OffsetCase("America/Sao_Paulo", "2019-02-17T02:00:00Z", 1_550_368_800, "-03:00:00"),
        OffsetCase("America/Sao_Paulo", "2026-01-15T00:00:00Z", 1_768_435_200, "-03:00:00"),
        OffsetCase("America/St_Johns", "2026-07-01T00:00:00Z", 1_782_864_000, "-02:30:00"),
        OffsetCase("Pacific/Chatham", "2026-01-01T00:00:00Z", 1_767_225_600, "+13:45:00"),
        OffsetCase("Pacific/Chatham", "2026-07-01T00:00:00Z", 1_782_864_000, "+12:45:00"),
        OffsetCase("Pacific/Kiritimati", "2026-11-29T14:03:12Z", 1_795_960_992, "+14:00:00"),
        // Ireland's winter time is its "daylight-saving" time, one hour behind standard time.
        OffsetCase("Europe/Dublin", "2026-01-01T00:00:00Z", 1_767_225_600, "+00:00:00"),
        OffsetCase("Europe/Dublin", "2026-07-01T00:00:00Z", 1_782_864_000, "+01:00:00"),
        OffsetCase("UTC", "2026-11-29T14:03:12Z", 1_795_960_992, "+00:00:00"),
        // After the last transition: the footer decides.
        OffsetCase("Europe/Berlin", "2080-07-01T12:00:00Z", 3_487_060_800, "+02:00:00"),
        OffsetCase("Europe/Berlin", "2080-12-01T12:00:00Z", 3_500_280_000, "+01:00:00"),
        OffsetCase("America/New_York", "2200-01-15T00:00:00Z", 7_259_328_000, "-05:00:00"),
        OffsetCase("America/New_York", "2200-07-15T00:00:00Z", 7_274_966_400, "-04:00:00"),
        OffsetCase("Australia/Lord_Howe", "2100-01-01T00:00:00Z", 4_102_444_800, "+11:00:00"),
        OffsetCase("Australia/Lord_Howe", "2100-07-01T00:00:00Z", 4_118_083_200, "+10:30:00"),
        OffsetCase("Australia/Adelaide", "2150-01-01T00:00:00Z", 5_680_281_600, "+10:30:00"),
        OffsetCase("Asia/Kathmandu", "2300-06-01T00:00:00Z", 10_426_838_400, "+05:45:00"),
        OffsetCase("America/Sao_Paulo", "2090-01-15T00:00:00Z", 3_788_121_600, "-03:00:00"),
        OffsetCase("Europe/Dublin", "2090-01-10T00:00:00Z", 3_787_689_600, "+00:00:00"),
        OffsetCase("Europe/Dublin", "2090-07-10T00:00:00Z", 3_803_328_000, "+01:00:00"),
        OffsetCase("America/Nuuk", "2100-03-28T00:59:59Z", 4_109_878_799, "-02:00:00"),
        OffsetCase("America/Nuuk", "2100-03-28T01:00:00Z", 4_109_878_800, "-01:00:00"),
        OffsetCase("America/Nuuk", "2100-10-31T00:59:59Z", 4_128_627_599, "-01:00:00"),
        OffsetCase("America/Nuuk", "2100-10-31T01:00:00Z", 4_128_627_600, "-02:00:00"),
        OffsetCase("Pacific/Chatham", "2100-09-25T13:59:59Z", 4_125_563_999, "+12:45:00"),
        OffsetCase("Pacific/Chatham", "2100-09-25T14:00:00Z", 4_125_564_000, "+13:45:00"),
        // Local mean time, before standard time.
        OffsetCase("Europe/Berlin", "1850-01-01T00:00:00Z", -3_786_825_600, "+00:53:28"),
        OffsetCase("America/New_York", "1800-01-01T00:00:00Z", -5_364_662_400, "-04:56:02"),
        OffsetCase("Asia/Kathmandu", "1900-01-01T00:00:00Z", -2_208_988_800, "+05:41:16"),
    ]

    @Test("Offsets from the system's zone files match glibc", .enabled(if: hasZoneInfo), arguments: systemCases)
    func systemZone(_ example: OffsetCase) throws {
        let zone = try #require(ZoneDirectory(environment: [:]).zone(named: example.zone))
        #expect(zone.utcOffset(at: example.seconds) == example.offsetSeconds)
    }

    @Test("Each case's seconds are its UTC date and time", arguments: systemCases + POSIXTimeZoneRuleTests.offsetCases)
    func caseIsConsistent(_ example: OffsetCase) {
        let time = CivilTime(secondsSince1970: example.seconds, utcOffset: 0)
        let text = String(format: "%04lld-%02d-%02dT%02d:%02d:%02dZ", time.year, time.month, time.day, time.hour, time.minute, time.second)
        #expect(text == example.utc)
    }

    // MARK: Synthetic files

    @Test("A slim file (no transitions) takes every offset from its footer", arguments: [2, 3, 4] as [UInt8])
    func slimFile(version: UInt8) throws {
        let bytes = TZif(version: version, types: [(3_600, false)], footer: "CET-1CEST,M3.5.0,M10.5.0/3").bytes
        let zone = try ZoneInfo(tzif: bytes)
        #expect(zone.transitions.isEmpty)
        #expect(zone.utcOffset(at: 1_774_745_999) == 3_600)
        #expect(zone.utcOffset(at: 1_774_746_000) == 7_200)
        #expect(zone.utcOffset(at: 1_792_889_999) == 7_200)
        #expect(zone.utcOffset(at: 1_792_890_000) == 3_600)
        // 1850-01-01: with no transitions the footer applies at every instant.
        #expect(zone.utcOffset(at: -3_786_825_600) == 3_600)
    }

    @Test("Before the first transition type 0 applies; after the last, its type (no footer)")
    func transitionsWithoutFooter() throws {
        let file = TZif(
            version: 0,
            transitions: [(1_000, 1), (2_000, 2)],
            types: [(-17_762, false), (-18_000, false), (-14_400, true)]
        )
        let zone = try ZoneInfo(tzif: file.bytes)
        #expect(zone.footer == nil)
        #expect(zone.utcOffset(at: -1_000_000) == -17_762)
        #expect(zone.utcOffset(at: 999) == -17_762)
        #expect(zone.utcOffset(at: 1_000) == -18_000)
        #expect(zone.utcOffset(at: 1_999) == -18_000)
        #expect(zone.utcOffset(at: 2_000) == -14_400)
        #expect(zone.utcOffset(at: 9_000_000_000) == -14_400)
    }

    @Test("Version 2 and later use the 64-bit block, not the version 1 block")
    func usesSixtyFourBitBlock() throws {
        var file = TZif(version: 2, transitions: [(5_000_000_000, 1)], types: [(0, false), (7_200, false)], footer: "")
        // A version 1 block that disagrees: a reader that used it would see one type only.
        file.versionOneOverride = TZif(version: 0, types: [(-3_600, false)]).block(timeSize: 4)
        let zone = try ZoneInfo(tzif: file.bytes)
        #expect(zone.transitions == [5_000_000_000])
        #expect(zone.utcOffset(at: 4_999_999_999) == 0)
        #expect(zone.utcOffset(at: 5_000_000_000) == 7_200)
    }

    /// A TZif file made wrong in one way.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = {
        let valid = TZif(version: 2, transitions: [(1_000, 1)], types: [(0, false), (3_600, true)], footer: "AAA0BBB,M3.5.0,M10.5.0")
        var cases = [
            Malformed(name: "no data", bytes: []),
            Malformed(name: "not TZif", bytes: Array("#!/bin/sh\necho hello, this is not a zone file at all\n".utf8)),
            Malformed(
                name: "unknown version",
                bytes: {
                    var b = valid.bytes
                    b[4] = UInt8(ascii: "x")
                    return b
                }()),
            Malformed(name: "no local time types", bytes: TZif(version: 2, types: [], footer: "UTC0").bytes),
            Malformed(
                name: "a transition to a type that does not exist",
                bytes: TZif(version: 2, transitions: [(1_000, 5)], types: [(0, false)], footer: "UTC0").bytes
            ),
            Malformed(
                name: "transitions out of order",
                bytes: TZif(version: 2, transitions: [(2_000, 0), (1_000, 0)], types: [(0, false)], footer: "UTC0").bytes
            ),
            Malformed(name: "a footer that is not a TZ string", bytes: TZif(version: 2, types: [(0, false)], footer: "12345").bytes),
            Malformed(name: "a footer without its final newline", bytes: Array(valid.bytes.dropLast())),
        ]
        // Every truncation of a valid file.
        for length in stride(from: 0, to: valid.bytes.count, by: 1) where length > 0 {
            cases.append(Malformed(name: "cut to \(length) of \(valid.bytes.count) bytes", bytes: Array(valid.bytes.prefix(length))))
        }
        return cases
    }()

    @Test("Malformed and truncated TZif data is an error, not a crash", arguments: malformed)
    func malformedData(_ example: Malformed) {
        #expect(throws: ZoneInfo.FormatError.self) { try ZoneInfo(tzif: example.bytes) }
    }

    @Test("The valid file the malformed cases start from is read")
    func validBaseFile() throws {
        let valid = TZif(version: 2, transitions: [(1_000, 1)], types: [(0, false), (3_600, true)], footer: "AAA0BBB,M3.5.0,M10.5.0")
        #expect(try ZoneInfo(tzif: valid.bytes).transitions == [1_000])
    }
}

/// Builds TZif data (RFC 8536) for tests.
struct TZif {
    /// 0 for version 1, else 2, 3 or 4.
    var version: UInt8
    var transitions: [(time: Int64, type: UInt8)] = []
    var types: [(offset: Int32, isDaylightSaving: Bool)]
    /// The footer's TZ string, for versions 2 and later.
    var footer: String = ""
    /// A version 1 data block to write instead of the one derived from the fields.
    var versionOneOverride: (header: [UInt8], block: [UInt8])?

    init(version: UInt8, transitions: [(Int64, UInt8)] = [], types: [(Int32, Bool)], footer: String = "") {
        self.version = version
        self.transitions = transitions.map { (time: $0.0, type: $0.1) }
        self.types = types.map { (offset: $0.0, isDaylightSaving: $0.1) }
        self.footer = footer
    }

    var bytes: [UInt8] {
        let versionByte = version == 0 ? 0 : UInt8(ascii: "0") + version
        guard version >= 2 else {
            let (header, block) = block(timeSize: 4)
            return Self.magic(versionByte) + header + block
        }
        let (header1, block1) = versionOneOverride ?? block(timeSize: 4)
        let (header2, block2) = block(timeSize: 8)
        return Self.magic(versionByte) + header1 + block1 + Self.magic(versionByte) + header2 + block2
            + Array("\n\(footer)\n".utf8)
    }

    /// The six counts and the data block with `timeSize`-byte transition times.
    func block(timeSize: Int) -> (header: [UInt8], block: [UInt8]) {
        let abbreviations = Array("LMT\0".utf8)
        let counts = [0, 0, 0, transitions.count, types.count, abbreviations.count]
        var block: [UInt8] = []
        for transition in transitions {
            block +=
                timeSize == 8
                ? Self.bigEndian(UInt64(bitPattern: transition.time), 8)
                : Self.bigEndian(UInt64(UInt32(truncatingIfNeeded: transition.time)), 4)
        }
        block += transitions.map(\.type)
        for type in types {
            block += Self.bigEndian(UInt64(UInt32(bitPattern: type.offset)), 4) + [type.isDaylightSaving ? 1 : 0, 0]
        }
        block += abbreviations
        return (counts.flatMap { Self.bigEndian(UInt64($0), 4) }, block)
    }

    private static func magic(_ version: UInt8) -> [UInt8] {
        Array("TZif".utf8) + [version] + Array(repeating: 0, count: 15)
    }

    private static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
