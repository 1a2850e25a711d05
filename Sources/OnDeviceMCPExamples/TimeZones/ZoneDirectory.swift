#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds time zones by IANA name in the zoneinfo directories, and the system's own zone.
///
/// FoundationEssentials has no time zone database (`TimeZone(identifier:)` knows only GMT
/// without ICU), so zones are read from the TZif files the operating system ships.
struct ZoneDirectory: Sendable {
    /// A zone and the name to report for it.
    struct NamedZone: Hashable, Sendable {
        var name: String
        var zone: ZoneInfo
    }

    /// The directories searched for zone files, in order.
    var directories: [String]
    /// The environment, for `TZ` (and `TZDIR` when `directories` were derived from it).
    var environment: [String: String]
    /// The system's zone file, usually a symbolic link into a zoneinfo directory.
    var localtimePath = "/etc/localtime"
    /// A file holding the system's zone name (Debian and its derivatives).
    var timezoneNamePath = "/etc/timezone"
    /// The zone files read so far, while they stay unchanged (shared by copies).
    var files = ZoneFileCache()

    /// Names of Coordinated Universal Time that work without any zone file.
    static let utcNames: Set<String> = [
        "UTC", "UCT", "GMT", "GMT0", "GMT+0", "GMT-0", "Greenwich", "Universal", "Zulu",
        "Etc/UTC", "Etc/UCT", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "Etc/Greenwich",
        "Etc/Universal", "Etc/Zulu",
    ]

    /// Files in zoneinfo directories that are not zones of their own.
    private static let excludedNames: Set<String> = ["localtime", "posixrules", "Factory"]

    /// The standard places: `$TZDIR`, `/usr/share/zoneinfo`, then Darwin's `/var/db/timezone/zoneinfo`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        var directories: [String] = []
        if let custom = environment["TZDIR"], !custom.isEmpty { directories.append(custom) }
        directories += ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo"]
        self.init(directories: directories, environment: environment)
    }

    /// Searches `directories` and reads the system zone from `environment` and the given files.
    init(
        directories: [String], environment: [String: String], localtimePath: String = "/etc/localtime",
        timezoneNamePath: String = "/etc/timezone"
    ) {
        self.directories = directories
        self.environment = environment
        self.localtimePath = localtimePath
        self.timezoneNamePath = timezoneNamePath
    }

    /// The zone with the IANA name `identifier`, such as `Europe/Lisbon`; `nil` when unknown.
    ///
    /// Names of UTC work without zone files, and so do `GMT+5`, `UTC-03:30` and the like
    /// (fixed offsets east of UTC, as Foundation's `TimeZone(identifier:)` accepts them).
    /// Names with `..`, absolute paths and leap-second (`right/`) zones are refused.
    func zone(named identifier: String) -> ZoneInfo? {
        if Self.isZoneName(identifier) {
            for directory in directories {
                if let zone = files.zone(atPath: directory + "/" + identifier) { return zone }
            }
        }
        if Self.utcNames.contains(identifier) { return .utc }
        return Self.fixedOffset(identifier).map { ZoneInfo(rule: POSIXTimeZoneRule(standardOffset: $0)) }
    }

    /// The zone of this system and its name.
    ///
    /// In order: the `TZ` variable (`:Area/City`, `Area/City`, or a POSIX rule such as
    /// `CET-1CEST,M3.5.0,M10.5.0/3`); the zone `/etc/localtime` links to inside a zoneinfo
    /// directory; the name in `/etc/timezone`; UTC. Looked up at most once a second
    /// (``ZoneFileCache/systemZoneLifetime``): a change of the system's zone shows within it.
    func systemZone() -> NamedZone {
        files.systemZone { lookUpSystemZone() }
    }

    /// The system's zone, looked up now (see ``systemZone()``).
    func lookUpSystemZone() -> NamedZone {
        if let variable = environment["TZ"], !variable.isEmpty {
            let name = variable.hasPrefix(":") ? String(variable.dropFirst()) : variable
            if let zone = zone(named: name) { return NamedZone(name: name, zone: zone) }
            if !variable.hasPrefix(":"), let rule = try? POSIXTimeZoneRule(parsing: variable) {
                return NamedZone(name: variable, zone: ZoneInfo(rule: rule))
            }
        }
        if let name = linkedZoneName(), let zone = files.zone(atPath: localtimePath) ?? zone(named: name) {
            return NamedZone(name: name, zone: zone)
        }
        if let contents = FileManager.default.contents(atPath: timezoneNamePath) {
            // One name, such as `Europe/Berlin`, and a line break.
            let text = String(decoding: contents, as: UTF8.self)
            if let name = text.split(whereSeparator: \.isWhitespace).first.map(String.init),
                let zone = zone(named: name)
            {
                return NamedZone(name: name, zone: zone)
            }
        }
        return NamedZone(name: "UTC", zone: .utc)
    }

    // MARK: Helpers

    /// The zone name `/etc/localtime` links to: its target's path below a zoneinfo directory.
    private func linkedZoneName() -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtimePath) else { return nil }
        // The name depends on the directories too (a copy may change them).
        let key = ([target] + directories).joined(separator: "\u{0}")
        return files.linkedName(forTarget: key) { _ in zoneName(forLinkTarget: target) }
    }

    /// The zone name a link target names: its path below a zoneinfo directory.
    private func zoneName(forLinkTarget target: String) -> String? {
        var target = target
        if !target.hasPrefix("/") {
            let parent = localtimePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            target = parent + "/" + target
        }
        let components = Self.normalizedComponents(target)
        for directory in directories {
            let prefix = Self.normalizedComponents(directory)
            if components.count > prefix.count, components.starts(with: prefix) {
                let name = components.dropFirst(prefix.count).joined(separator: "/")
                if Self.isZoneName(name) { return name }
            }
        }
        // Another zoneinfo tree, such as /usr/share/zoneinfo.default or a versioned one.
        guard let marker = components.lastIndex(where: { $0.hasPrefix("zoneinfo") }) else { return nil }
        let name = components[(marker + 1)...].joined(separator: "/")
        return Self.isZoneName(name) ? name : nil
    }

    /// The components of an absolute path, with `.` and `..` resolved lexically.
    private static func normalizedComponents(_ path: String) -> [String] {
        var components: [String] = []
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(String(component))
            }
        }
        return components
    }

    /// Whether `name` may name a file below a zoneinfo directory: relative, no `.` or `..`
    /// components, only the characters of IANA names, and not a leap-second zone.
    static func isZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, !excludedNames.contains(name) else { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard components.first != "right" else { return false }
        return components.allSatisfy { component in
            !component.isEmpty && component != "." && component != ".."
                && component.utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                        UInt8(ascii: "+"), UInt8(ascii: "."):
                        true
                    default:
                        false
                    }
                }
        }
    }

    /// The offset east of UTC of `GMT+5`, `UTC-3`, `GMT+0530` or `UTC+05:30`, up to 18 hours.
    static func fixedOffset(_ name: String) -> Int? {
        guard name.hasPrefix("GMT") || name.hasPrefix("UTC") else { return nil }
        let signed = name.dropFirst(3)
        guard let sign = signed.first, sign == "+" || sign == "-" else { return nil }
        let parts = signed.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        let hoursText: Substring
        let minutesText: Substring
        switch (parts.count, parts[0].count) {
        case (1, 1...2): (hoursText, minutesText) = (parts[0], "0")
        case (1, 4): (hoursText, minutesText) = (parts[0].prefix(2), parts[0].suffix(2))
        case (2, 2) where parts[1].count == 2: (hoursText, minutesText) = (parts[0], parts[1])
        default: return nil
        }
        guard (hoursText + minutesText).allSatisfy({ $0.isASCII && $0.isNumber }),
            let hours = Int(hoursText), let minutes = Int(minutesText), hours <= 18, minutes < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }
}
