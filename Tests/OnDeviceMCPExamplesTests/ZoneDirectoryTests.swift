import Foundation
import OnDeviceMCPTestSupport
import Testing

@testable import OnDeviceMCPExamples

@Suite("Finding time zones")
struct ZoneDirectoryTests {
    /// A zoneinfo directory with a few synthetic zones, and an `etc` directory beside it.
    struct Fixture {
        let root: TemporaryDirectory
        var zoneinfo: String { root.path + "/zoneinfo" }
        var etc: String { root.path + "/etc" }

        init() throws {
            root = try TemporaryDirectory()
            let manager = FileManager.default
            try manager.createDirectory(atPath: zoneinfo + "/Test", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: etc, withIntermediateDirectories: true)
            try Self.write(TZif(version: 2, types: [(20_700, false)], footer: "<+0545>-5:45"), to: zoneinfo + "/Test/Kathmandu")
            try Self.write(TZif(version: 2, types: [(3_600, false)], footer: "CET-1CEST,M3.5.0,M10.5.0/3"), to: zoneinfo + "/Test/Berlin")
            try Data("not a zone\n".utf8).write(to: URL(fileURLWithPath: zoneinfo + "/zone.tab"))
        }

        static func write(_ file: TZif, to path: String) throws {
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        }

        func directory(environment: [String: String] = [:]) -> ZoneDirectory {
            ZoneDirectory(
                directories: [zoneinfo], environment: environment,
                localtimePath: etc + "/localtime", timezoneNamePath: etc + "/timezone"
            )
        }

        func remove() { root.remove() }
    }

    @Test("Zones are found by name in the directories")
    func byName() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let zone = try #require(fixture.directory().zone(named: "Test/Kathmandu"))
        #expect(zone.utcOffset(at: 1_795_960_992) == 20_700)
    }

    @Test(
        "Names that leave the directory, or are not zones, are unknown",
        arguments: [
            "../etc/passwd", "/etc/passwd", "Test/../Test/Berlin", "./Test/Berlin", "Test//Berlin", "Test/Berlin/",
            "", "zone.tab", "Test", "Mars/Base", "right/UTC", "localtime", "posixrules", "Test/Berlin\u{0}", "Test/Ber lin",
        ])
    func refused(_ name: String) throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(fixture.directory().zone(named: name) == nil)
    }

    @Test("A zone file is read once while it is unchanged, and again once it changes")
    func zoneFilesAreCachedUntilTheyChange() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let directory = fixture.directory()
        let first = try #require(directory.zone(named: "Test/Kathmandu"))
        #expect(directory.files.count == 1)
        #expect(directory.zone(named: "Test/Kathmandu") == first)
        #expect(directory.files.count == 1)
        // The same path now holds another zone (of another size, so the stamp differs even
        // where the file system keeps whole seconds only).
        try Fixture.write(
            TZif(version: 2, types: [(-10_800, false), (-7_200, true)], footer: "<-03>3"), to: fixture.zoneinfo + "/Test/Kathmandu")
        let second = try #require(directory.zone(named: "Test/Kathmandu"))
        #expect(second.utcOffset(at: 1_795_960_992) == -10_800)
        // A removed file is unknown at once, not served from the cache.
        try FileManager.default.removeItem(atPath: fixture.zoneinfo + "/Test/Kathmandu")
        #expect(directory.zone(named: "Test/Kathmandu") == nil)
    }

    @Test("The system's zone is looked up again once its lifetime has passed, not before")
    func systemZoneIsLookedUpOncePerLifetime() {
        let cache = ZoneFileCache()
        let start = ContinuousClock.now
        let lisbon = ZoneDirectory.NamedZone(name: "Europe/Lisbon", zone: .utc)
        let tokyo = ZoneDirectory.NamedZone(name: "Asia/Tokyo", zone: .utc)
        #expect(cache.systemZone(now: start) { lisbon } == lisbon)
        let halfway = start + ZoneFileCache.systemZoneLifetime / 2
        #expect(cache.systemZone(now: halfway) { tokyo } == lisbon, "within its lifetime the zone is not looked up")
        let later = start + ZoneFileCache.systemZoneLifetime
        #expect(cache.systemZone(now: later) { tokyo } == tokyo)
    }

    @Test("The zone file cache holds at most its capacity")
    func zoneFileCacheIsBounded() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let cache = ZoneFileCache(capacity: 1)
        #expect(cache.zone(atPath: fixture.zoneinfo + "/Test/Kathmandu") != nil)
        #expect(cache.zone(atPath: fixture.zoneinfo + "/Test/Berlin") != nil)
        #expect(cache.count == 1)
        #expect(cache.zone(atPath: fixture.zoneinfo + "/zone.tab") == nil, "a file that is not TZif is not a zone")
        #expect(cache.count == 1)
    }

    @Test("UTC names work without any zone file", arguments: ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Zulu", "UCT"])
    func utcWithoutFiles(_ name: String) {
        let directory = ZoneDirectory(directories: ["/nonexistent-zoneinfo"], environment: [:])
        #expect(directory.zone(named: name) == .utc)
    }

    @Test(
        "GMT and UTC with an offset are fixed zones east of UTC, as in Foundation",
        arguments: [
            ("GMT+5", 18_000), ("UTC-3", -10_800), ("GMT+05:30", 19_800), ("UTC+0545", 20_700), ("GMT-12", -43_200),
        ])
    func fixedOffsets(_ name: String, _ offset: Int) throws {
        let zone = try #require(ZoneDirectory(directories: [], environment: [:]).zone(named: name))
        #expect(zone.utcOffset(at: 0) == offset)
    }

    @Test(
        "Malformed fixed offsets are unknown",
        arguments: ["GMT+", "GMT+123", "GMT+19", "UTC+5:30", "GMT+05:60", "GMT 5", "GMT+-5", "UTC+05:3"])
    func malformedFixedOffsets(_ name: String) {
        #expect(ZoneDirectory(directories: [], environment: [:]).zone(named: name) == nil)
    }

    // MARK: The system zone

    @Test("TZ names the system zone, with or without a colon", arguments: ["Test/Kathmandu", ":Test/Kathmandu"])
    func systemFromVariable(_ variable: String) throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let system = fixture.directory(environment: ["TZ": variable]).systemZone()
        #expect(system.name == "Test/Kathmandu")
        #expect(system.zone.utcOffset(at: 0) == 20_700)
    }

    @Test("TZ may hold a POSIX rule")
    func systemFromRule() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let system = fixture.directory(environment: ["TZ": "EST5EDT,M3.2.0,M11.1.0"]).systemZone()
        #expect(system.name == "EST5EDT,M3.2.0,M11.1.0")
        #expect(system.zone.utcOffset(at: 1_772_953_200) == -14_400)
    }

    @Test(
        "/etc/localtime's link target names the zone; an unknown TZ falls back to it",
        arguments: [
            [:], ["TZ": "Mars/Base"], ["TZ": ":not a rule"],
        ])
    func systemFromLink(_ environment: [String: String]) throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try FileManager.default.createSymbolicLink(atPath: fixture.etc + "/localtime", withDestinationPath: "../zoneinfo/Test/Berlin")
        let system = fixture.directory(environment: environment).systemZone()
        #expect(system.name == "Test/Berlin")
        #expect(system.zone.utcOffset(at: 1_774_746_000) == 7_200)
    }

    @Test("A link into another zoneinfo tree still names the zone")
    func systemFromOtherTree() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try FileManager.default.createSymbolicLink(atPath: fixture.root.path + "/zoneinfo.default", withDestinationPath: fixture.zoneinfo)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.etc + "/localtime", withDestinationPath: fixture.root.path + "/zoneinfo.default/Test/Kathmandu")
        let system = fixture.directory().systemZone()
        #expect(system.name == "Test/Kathmandu")
        #expect(system.zone.utcOffset(at: 0) == 20_700)
    }

    @Test("Without a link, /etc/timezone names the zone")
    func systemFromNameFile() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try Data("Test/Kathmandu\n".utf8).write(to: URL(fileURLWithPath: fixture.etc + "/timezone"))
        let system = fixture.directory().systemZone()
        #expect(system.name == "Test/Kathmandu")
        #expect(system.zone.utcOffset(at: 0) == 20_700)
    }

    @Test("With nothing to go on, the system zone is UTC")
    func systemDefault() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let system = fixture.directory().systemZone()
        #expect(system.name == "UTC")
        #expect(system.zone == .utc)
    }
}
