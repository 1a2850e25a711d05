import Foundation
import MCP
import OnDeviceMCPTestSupport
import Testing

@testable import OnDeviceMCPExamples

/// Collects warnings from a store.
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func record(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}

@Suite("Notes store")
struct NotesStoreTests {
    @Test("200 concurrent adds are all present, in memory and after reopening")
    func concurrentAdds() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotesStore(directory: directory.url)
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                group.addTask { try await store.add(title: "note \(index)", body: "body \(index)").id }
            }
            var ids: Set<String> = []
            for try await id in group { ids.insert(id) }
            return ids
        }
        #expect(ids.count == 200)
        #expect(await store.count == 200)
        #expect(Set(await store.list().map(\.id)) == ids)

        let reopened = try NotesStore(directory: directory.url)
        #expect(Set(await reopened.list().map(\.id)) == ids)
        #expect(try directory.contents() == ["notes.json"])
    }

    @Test("Reopening reads exactly what was written, newest first")
    func reopen() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotesStore(directory: directory.url)
        let first = try await store.add(title: "First", body: "Ünïcödé \u{1F600} and \"quotes\"\nnew line")
        let second = try await store.add(title: "Second", body: "")
        _ = try await store.add(title: "Third", body: "gone soon")
        let third = try #require(await store.list(limit: 1).first)
        #expect(try await store.delete(id: third.id) == third)
        #expect(try await store.delete(id: third.id) == nil)

        let reopened = try NotesStore(directory: directory.url)
        #expect(await reopened.list() == [second, first])
        #expect(await reopened.search("ÜNÏ") == [first])
        #expect(await reopened.search("o", limit: 1) == [second])
        #expect(await reopened.search("nothing like this").isEmpty)
    }

    @Test("A corrupt file is moved aside with a warning, not replaced")
    func corruptFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let garbage = Data(#"{"version":1,"notes":[{"id":"a","title":"#.utf8)
        try garbage.write(to: directory.url.appendingPathComponent("notes.json"))
        let warnings = WarningLog()
        let store = try NotesStore(directory: directory.url, warnings: warnings.record)
        #expect(await store.count == 0)

        let names = try directory.contents()
        let aside = try #require(names.first { $0.hasPrefix("notes.json.corrupt-") })
        #expect(aside.wholeMatch(of: #/notes\.json\.corrupt-\d{8}T\d{6}Z/#) != nil)
        #expect(try Data(contentsOf: directory.url.appendingPathComponent(aside)) == garbage)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("moved it to") == true)
        #expect(warnings.all.first?.contains("invalid JSON at byte") == true)

        // The store works afterwards, and a second corrupt file does not overwrite the first.
        _ = try await store.add(title: "new", body: "")
        try Data("not json".utf8).write(to: directory.url.appendingPathComponent("notes.json"))
        _ = try NotesStore(directory: directory.url, warnings: warnings.record)
        #expect(try directory.contents().filter { $0.hasPrefix("notes.json.corrupt-") }.count == 2)
        #expect(warnings.all.count == 2)
    }

    @Test(
        "A file with the wrong shape counts as corrupt",
        arguments: [
            #"[]"#, #"{"notes":{}}"#, #"{"notes":[{"id":"a"}]}"#,
            #"{"notes":[{"id":"a","title":"t","body":"b","createdAt":"c"},{"id":"a","title":"t","body":"b","createdAt":"c"}]}"#, "",
        ])
    func wrongShape(_ content: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(content.utf8).write(to: directory.url.appendingPathComponent("notes.json"))
        let warnings = WarningLog()
        let store = try NotesStore(directory: directory.url, warnings: warnings.record)
        #expect(await store.count == 0)
        #expect(warnings.all.count == 1)
        #expect(try directory.contents().contains { $0.hasPrefix("notes.json.corrupt-") })
    }

    @Test("An unreadable file makes opening fail, and stays where it is")
    func unreadableFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A directory where the file should be: it exists but cannot be read as a file.
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("notes.json"), withIntermediateDirectories: false)
        #expect(throws: NotesStoreError.self) { try NotesStore(directory: directory.url) }
        #expect(try directory.contents() == ["notes.json"])
    }

    @Test("Temporary files left by a crash are removed on opening")
    func leftoverTemporaryFiles() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try NotesStore(directory: directory.url)
        let note = try await store.add(title: "kept", body: "")
        try Data("half a fi".utf8).write(to: directory.url.appendingPathComponent(".notes.json.tmp-crashed"))
        let reopened = try NotesStore(directory: directory.url)
        #expect(await reopened.list() == [note])
        #expect(try directory.contents() == ["notes.json"])
    }
}

@Suite("Atomic file")
struct AtomicFileTests {
    @Test("A reader never sees a partial file while it is being replaced")
    func neverPartial() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.url.appendingPathComponent("data.json")
        // Versions of very different sizes, each a complete JSON document.
        let versions: [[UInt8]] = (0..<60).map { index in
            let value: JSONValue = ["version": .int(index), "padding": .string(String(repeating: "x", count: (index % 6) * 50_000))]
            return Array(value.description.utf8)
        }
        try AtomicFile.write(versions[0], to: target)
        let done = WriterDone()
        // The writer runs on its own thread, so the reading loop below never starves it.
        let writer = Thread {
            do {
                for version in versions.dropFirst() {
                    try AtomicFile.write(version, to: target)
                    done.wrote()
                }
                done.finish(nil)
            } catch {
                done.finish(error)
            }
        }
        writer.start()
        var reads = 0
        var partial = 0
        // Reads race the writes, paced by them (at most 8 reads per version written so far)
        // so that the loop never spins on its own once it is ahead of the writer.
        while !done.isFinished || reads == 0 {
            done.waitUntil(written: reads / 8)
            let bytes = try [UInt8](Data(contentsOf: target))
            reads += 1
            if !versions.contains(bytes) { partial += 1 }
        }
        #expect(done.error == nil)
        #expect(partial == 0, "\(partial) of \(reads) reads saw a file that is not one of the versions")
        #expect(try [UInt8](Data(contentsOf: target)) == versions.last)
        #expect(try directory.contents() == ["data.json"])
    }

    @Test("A failed replacement leaves the target as it was and no temporary file")
    func failureLeavesTarget() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // rename(2) cannot replace a non-empty directory.
        let target = directory.url.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let error = #expect(throws: AtomicFileError.self) { try AtomicFile.write(Array("new".utf8), to: target) }
        #expect(error?.operation == "rename")
        #expect(try directory.contents() == ["busy"])
        #expect(throws: AtomicFileError.self) {
            try AtomicFile.write(Array("x".utf8), to: directory.url.appendingPathComponent("missing/dir/file"))
        }
    }
}

/// A flag the writer sets when it is done, read by the reading loop.
final class WriterDone: @unchecked Sendable {
    private let lock = NSCondition()
    private var finished = false
    private var failure: (any Error)?
    private var written = 0

    /// One more version is written.
    func wrote() {
        lock.lock()
        written += 1
        lock.broadcast()
        lock.unlock()
    }

    /// Waits until at least `count` versions are written, or the writer has finished.
    func waitUntil(written count: Int) {
        lock.lock()
        while written < count && !finished { lock.wait() }
        lock.unlock()
    }

    func finish(_ error: (any Error)?) {
        lock.lock()
        finished = true
        failure = error
        lock.broadcast()
        lock.unlock()
    }

    var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }
}

@Suite("Clock")
struct ClockTests {
    @Test(
        "A reading gives the local time, the offset and the weekday", .enabled(if: hasZoneInfo),
        arguments: [
            ("Europe/Lisbon", "2026-11-29T14:03:12+00:00 (Europe/Lisbon, Sunday)", 0),
            ("Asia/Tokyo", "2026-11-29T23:03:12+09:00 (Asia/Tokyo, Sunday)", 32_400),
            ("America/St_Johns", "2026-11-29T10:33:12-03:30 (America/St_Johns, Sunday)", -12_600),
            ("Pacific/Kiritimati", "2026-11-30T04:03:12+14:00 (Pacific/Kiritimati, Monday)", 50_400),
        ])
    func reading(_ zone: String, _ text: String, _ offset: Int) throws {
        // 2026-11-29T14:03:12Z
        let date = Date(timeIntervalSince1970: 1_795_960_992)
        let reading = ClockReading(date: date, zone: try #require(ZoneDirectory().zone(named: zone)), name: zone)
        #expect(reading.text == text)
        #expect(reading.utcOffsetSeconds == offset)
        #expect(reading.json["timezone"] == .string(zone))
    }

    @Test(
        "A reading's fields wider than usual are written whole",
        arguments: [
            // A zone file may give any offset: 100 hours east and west.
            (1_795_960_992.0, 360_000, "2026-12-03T18:03:12+100:00 (Odd, Thursday)"),
            (1_795_960_992.0, -360_000, "2026-11-25T10:03:12-100:00 (Odd, Wednesday)"),
            // The last second of year 9999, seen an hour east: year 10000.
            (253_402_300_799.0, 3_600, "10000-01-01T00:59:59+01:00 (Odd, Saturday)"),
        ])
    func wideReading(_ seconds: Double, _ offset: Int, _ text: String) {
        let zone = ZoneInfo(rule: POSIXTimeZoneRule(standardOffset: offset))
        let reading = ClockReading(date: Date(timeIntervalSince1970: seconds), zone: zone, name: "Odd")
        #expect(reading.text == text)
        #expect(reading.utcOffsetSeconds == offset)
    }

    @Test(
        "UTC timestamps have milliseconds and agree with Foundation's Calendar",
        arguments: [
            0, 1_795_960_992.123, 1_795_960_992.999_9, -1.5, 951_782_399.000_5, 1_000_000_000.25,
        ])
    func utcTimestamp(_ seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        let expected = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d+00:00", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, (parts.nanosecond ?? 0) / 1_000_000
        )
        #expect(ClockReading.utcTimestamp(date) == expected)
    }

    @Test("clock_now without a zone reads the system zone")
    func systemZone() async throws {
        let server = MCPServer(name: "t", version: "1")
        let zones = ZoneDirectory(directories: [], environment: ["TZ": "<+0545>-5:45"])
        try await ClockTool.register(on: server, now: { Date(timeIntervalSince1970: 1_795_960_992) }, zones: zones)
        let client = try await MCPClient.connect(to: server)
        let result = try await client.callTool(name: "clock_now", arguments: [:])
        #expect(result.text == "2026-11-29T19:48:12+05:45 (<+0545>-5:45, Sunday)")
        let utc = try await client.callTool(name: "clock_now", arguments: ["timezone": "UTC"])
        #expect(utc.text == "2026-11-29T14:03:12+00:00 (UTC, Sunday)")
        await client.close()
    }

    @Test("clock_now returns text and structured content; an unknown zone is a tool error")
    func tool() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = MCPServer(name: "t", version: "1")
        let store = try NotesStore(directory: directory.url)
        try await registerExampleTools(on: server, store: store, now: { Date(timeIntervalSince1970: 1_795_960_992) })
        let client = try await MCPClient.connect(to: server)
        let result = try await client.callTool(name: "clock_now", arguments: ["timezone": "Europe/Lisbon"])
        #expect(result.text == "2026-11-29T14:03:12+00:00 (Europe/Lisbon, Sunday)")
        #expect(
            result.structuredContent == [
                "iso8601": "2026-11-29T14:03:12+00:00", "timezone": "Europe/Lisbon", "utcOffsetSeconds": 0, "weekday": "Sunday",
            ])
        let unknown = try await client.callTool(name: "clock_now", arguments: ["timezone": "Mars/Base"])
        #expect(unknown.isError)
        #expect(unknown.text.contains("Mars/Base"))
        await client.close()
    }
}
