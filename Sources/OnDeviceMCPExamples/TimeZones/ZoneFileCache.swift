internal import MCPPlatform

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The zones read from TZif files, kept while each file's ``MCPPlatform/FileStamp`` stays the
/// same: a `clock_now` call costs a `stat`, not an open, a read and a parse.
///
/// A file that changes (the system's zone set to another, a tzdata update) is read again on
/// the next call. At most ``capacity`` files are kept; past that the cache starts over, so
/// names asked for by a model cannot make it grow without bound.
final class ZoneFileCache: Sendable {
    private struct Entry {
        var stamp: FileStamp
        var zone: ZoneInfo
    }

    /// The most files kept.
    let capacity: Int
    private let entries = LockedValue<[String: Entry]>([:])

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The zone in the TZif file at `path`, or `nil` when it is missing or not TZif.
    func zone(atPath path: String) -> ZoneInfo? {
        guard let stamp = POSIX.fileStamp(atPath: path) else { return nil }
        if let entry = entries.withLock({ $0[path] }), entry.stamp == stamp { return entry.zone }
        guard let data = FileManager.default.contents(atPath: path), let zone = try? ZoneInfo(tzif: Array(data)) else {
            return nil
        }
        entries.withLock { entries in
            if entries[path] == nil, entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[path] = Entry(stamp: stamp, zone: zone)
        }
        return zone
    }

    /// The zone name last derived from a symbolic link's target, with that target.
    private let lastLink = LockedValue<(target: String, name: String?)?>(nil)

    /// The zone name for the link target `target` (with whatever else the name depends on in
    /// the same string): the one derived last time when it is the same, else `derive(target)`,
    /// remembered for next time.
    func linkedName(forTarget target: String, derive: (String) -> String?) -> String? {
        if let last = lastLink.withLock({ $0 }), last.target == target { return last.name }
        let name = derive(target)
        lastLink.withLock { $0 = (target, name) }
        return name
    }

    /// A looked-up system zone and when it was looked up.
    ///
    /// A class, so that each call takes one reference out of the lock rather than copying the
    /// zone's name and tables (a retain each) twice.
    private final class SystemZoneReading: Sendable {
        let zone: ZoneDirectory.NamedZone
        let at: ContinuousClock.Instant

        init(zone: ZoneDirectory.NamedZone, at: ContinuousClock.Instant) {
            self.zone = zone
            self.at = at
        }
    }

    /// The system's zone as last looked up, and when.
    private let lastSystemZone = LockedValue<SystemZoneReading?>(nil)

    /// How long a looked-up system zone is used before it is looked up again: a change of the
    /// system's zone shows within this time, and a busy clock tool makes no system call for it
    /// in between (the lookup is a `readlink` and a `stat`, a few microseconds each).
    static let systemZoneLifetime = Duration.seconds(1)

    /// The system's zone: the one looked up less than ``systemZoneLifetime`` ago, else
    /// `lookUp()` (remembered for next time).
    func systemZone(now: ContinuousClock.Instant = .now, lookUp: () -> ZoneDirectory.NamedZone) -> ZoneDirectory.NamedZone {
        if let last = lastSystemZone.withLock({ $0 }), now < last.at + Self.systemZoneLifetime, now >= last.at {
            return last.zone
        }
        let zone = lookUp()
        let reading = SystemZoneReading(zone: zone, at: now)
        lastSystemZone.withLock { $0 = reading }
        return zone
    }

    /// The number of files kept (for tests).
    var count: Int { entries.withLock { $0.count } }
}
