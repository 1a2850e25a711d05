#if !canImport(FoundationModels)
import Foundation
import JSONCore

/// A prompt of the held-out set (`Benchmarks/model/heldout-prompts.json`): the tool its first
/// step should call, what the call's arguments must say and what the final answer must show.
struct HeldOutCase: Sendable {
    var id: String
    var prompt: String
    /// The tool the first step should call; `nil`: none.
    var tool: String?
    /// Other tools that are right too.
    var alsoRight: [String]
    var checks: [ArgumentCheck]
    var expectation: AnswerExpectation
    /// One of the README-style questions the brief of issue #23 names.
    var readme: Bool

    /// The tools a right first call names (empty: the prompt needs none).
    var rightTools: [String] { tool.map { [$0] + alsoRight } ?? [] }
}

/// What a final answer must show (see the set's `about`).
struct AnswerExpectation: Sendable {
    /// Each entry's alternatives; every entry must appear (one of its alternatives), as a whole
    /// word or phrase, ignoring case.
    var mentions: [[String]] = []
    /// The local time in this zone (`""`: the system's) at a minute of the turn.
    var time: String?
    /// The weekday in this zone.
    var weekday: String?
    /// The date in this zone.
    var date: String?

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// What `answer` misses of these expectations (empty: it shows them all), for a turn that
    /// ran from `start` to `end`.
    func misses(_ answer: String, from start: Date, to end: Date) -> [String] {
        var missed: [String] = []
        for alternatives in mentions where !alternatives.contains(where: { AnswerText.mentions(answer, $0) }) {
            missed.append("no \(alternatives.joined(separator: "|"))")
        }
        if let zone = time {
            let readings = Self.minutes(from: start, to: end, in: zone)
            // Without UTC offsets: "+00:00" is not midnight.
            let clockText = answer.replacing(#/[+-]\d\d:\d\d/#, with: "")
            let shown = readings.contains { reading in
                let hour12 = reading.hour % 12 == 0 ? 12 : reading.hour % 12
                return [
                    String(format: "%02d:%02d", reading.hour, reading.minute), String(format: "%d:%02d", reading.hour, reading.minute),
                    String(format: "%d:%02d", hour12, reading.minute),
                ].contains { AnswerText.mentions(clockText, $0) }
            }
            if !shown { missed.append("no time of \(zone.isEmpty ? "the system zone" : zone)") }
        }
        if let zone = weekday {
            let names = Set(Self.minutes(from: start, to: end, in: zone).map { Self.weekdays[$0.weekday - 1] })
            if !names.contains(where: { AnswerText.mentions(answer, $0) }) { missed.append("no weekday of \(zone)") }
        }
        if let zone = date {
            let shown = Self.minutes(from: start, to: end, in: zone).contains { reading in
                AnswerText.mentions(answer, String(format: "%04d-%02d-%02d", reading.year, reading.month, reading.day))
                    || (AnswerText.mentions(answer, Self.months[reading.month - 1]) && AnswerText.mentions(answer, String(reading.day)))
            }
            if !shown { missed.append("no date of \(zone.isEmpty ? "the system zone" : zone)") }
        }
        return missed
    }

    /// A clock's reading: the date, the time to the minute, the weekday (1 is Sunday).
    struct Reading {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var weekday: Int
    }

    /// The clock readings in `zone` of every minute from `start` to `end`.
    static func minutes(from start: Date, to end: Date, in zone: String) -> [Reading] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone.isEmpty ? .current : TimeZone(identifier: zone) ?? .current
        var readings: [Reading] = []
        var moment = start
        while moment <= end.addingTimeInterval(60) {
            readings.append(
                Reading(
                    year: calendar.component(.year, from: moment), month: calendar.component(.month, from: moment),
                    day: calendar.component(.day, from: moment), hour: calendar.component(.hour, from: moment),
                    minute: calendar.component(.minute, from: moment), weekday: calendar.component(.weekday, from: moment)))
            moment = moment.addingTimeInterval(60)
        }
        return readings
    }
}

/// Reading a model's answer: mentions, and whether it is degenerate.
enum AnswerText {
    /// Whether `text` contains `phrase`, ignoring case, not inside a longer word or number.
    static func mentions(_ text: String, _ phrase: String) -> Bool {
        let haystack = Array(text.lowercased())
        let needle = Array(phrase.lowercased())
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            let before = start == 0 || !isWordCharacter(haystack[start - 1]) || !isWordCharacter(needle[0])
            let afterIndex = start + needle.count
            let after = afterIndex == haystack.count || !isWordCharacter(haystack[afterIndex]) || !isWordCharacter(needle[needle.count - 1])
            if before && after { return true }
        }
        return false
    }

    /// Why `answer` is degenerate, or `nil`: empty; longer than `maximumCharacters`; a run of a
    /// unit of 1 to 40 characters repeated at least 4 times over at least 24 characters
    /// (`[aesbw]; [aesbw]; …`, `0000…`); or four words in a row that appear 3 times or more.
    static func degeneracy(of answer: String, maximumCharacters: Int) -> String? {
        let trimmed = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "empty" }
        let characters = Array(trimmed)
        if characters.count > maximumCharacters { return "\(characters.count) characters (over \(maximumCharacters))" }
        for period in 1...40 where characters.count >= 2 * period {
            var run = 0
            for index in period..<characters.count {
                run = characters[index] == characters[index - period] ? run + 1 : 0
                if run + period >= max(4 * period, 24) {
                    let unit = String(characters[(index - period + 1)...index])
                    return "\"\(unit)\" repeated over \(run + period)+ characters"
                }
            }
        }
        let words = trimmed.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
        if words.count >= 4 {
            var counts: [String: Int] = [:]
            for start in 0...(words.count - 4) {
                let gram = words[start..<(start + 4)].joined(separator: " ")
                counts[gram, default: 0] += 1
                if counts[gram] == 3 { return "\"\(gram)\" 3 times" }
            }
        }
        return nil
    }
}

/// The held-out prompt set, read from `Benchmarks/model/heldout-prompts.json`.
struct HeldOutSet: Sendable {
    var cases: [HeldOutCase]
    /// The notes the example server's store starts with, as `notes.json` holds them.
    var notes: [JSONValue]
    var maximumAnswerCharacters: Int

    static var path: String { Paths.packageRoot + "/Benchmarks/model/heldout-prompts.json" }

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads the set at `path`.
    static func load(from path: String = path) throws -> HeldOutSet {
        let document = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        guard let prompts = document["prompts"]?.arrayValue, let notes = document["notes"]?.arrayValue,
            let maximum = document["maximumAnswerCharacters"]?.intValue
        else { throw Invalid(description: "\(path): needs prompts, notes and maximumAnswerCharacters") }
        return HeldOutSet(cases: try prompts.map(heldOutCase), notes: notes, maximumAnswerCharacters: maximum)
    }

    static func heldOutCase(_ value: JSONValue) throws -> HeldOutCase {
        guard let id = value["id"]?.stringValue, let prompt = value["prompt"]?.stringValue else {
            throw Invalid(description: "a prompt without id or prompt: \((try? value.jsonString()) ?? "?")")
        }
        let answer = value["answer"]
        let expectation = AnswerExpectation(
            mentions: (answer?["mentions"]?.arrayValue ?? []).compactMap(\.stringValue).map {
                $0.split(separator: "|").map(String.init)
            },
            time: answer?["time"]?.stringValue, weekday: answer?["weekday"]?.stringValue, date: answer?["date"]?.stringValue)
        return HeldOutCase(
            id: id, prompt: prompt, tool: value["tool"]?.stringValue,
            alsoRight: (value["alsoRight"]?.arrayValue ?? []).compactMap(\.stringValue),
            checks: try (value["arguments"]?.arrayValue ?? []).map { try check($0, in: id) }, expectation: expectation,
            readme: value["readme"]?.boolValue ?? false)
    }

    static func check(_ value: JSONValue, in id: String) throws -> ArgumentCheck {
        let key = value["key"]?.stringValue
        switch (value["check"]?.stringValue, key) {
        case ("contains", _):
            let keys = (value["keys"]?.arrayValue ?? []).compactMap(\.stringValue)
            let texts = (value["texts"]?.arrayValue ?? []).compactMap(\.stringValue)
            if texts.count == 1 { return .contains(keys: keys, text: texts[0]) }
            return .containsAny(keys: keys, texts: texts)
        case ("oneOf", let key?):
            return .oneOf(key: key, values: value["values"]?.arrayValue ?? [])
        case ("absent", let key?):
            return .absent(key: key)
        case ("absentOrAtLeast", let key?):
            return .absentOrAtLeast(key: key, minimum: value["minimum"]?.intValue ?? 0)
        default:
            throw Invalid(description: "\(id): an argument check this evaluation does not know: \((try? value.jsonString()) ?? "?")")
        }
    }
}
#endif
