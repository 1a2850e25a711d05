internal import MCP
internal import MCPCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `clock_now`: the current date and time in an IANA time zone.
enum ClockTool {
    static let name = "clock_now"

    static let inputSchema: JSONValue = [
        "type": "object",
        "properties": [
            "timezone": [
                "type": "string",
                "description": "An IANA time zone name, such as Europe/Lisbon or America/New_York. Default: the system's time zone.",
                "minLength": 1,
                "maxLength": 100,
            ]
        ],
        "additionalProperties": false,
    ]

    static let outputSchema: JSONValue = [
        "type": "object",
        "properties": [
            "iso8601": ["type": "string", "description": "The local date and time with its UTC offset."],
            "timezone": ["type": "string", "description": "The IANA time zone name."],
            "utcOffsetSeconds": ["type": "integer", "description": "The zone's offset from UTC at this moment."],
            "weekday": ["type": "string", "description": "The day of the week, in English."],
        ],
        "required": ["iso8601", "timezone", "utcOffsetSeconds", "weekday"],
        "additionalProperties": false,
    ]

    /// Registers `clock_now` on `server`.
    ///
    /// - Parameters:
    ///   - server: The server to add the tool to.
    ///   - now: The current moment (fixed in tests).
    ///   - zones: Where zones are looked up by name, and the system's zone when none is asked for.
    static func register(
        on server: MCPServer, now: @escaping @Sendable () -> Date, zones: ZoneDirectory = ZoneDirectory()
    ) async throws {
        try await server.register(
            name: name,
            title: "Current time",
            description: "Returns the current date and time in a time zone (ISO 8601 with UTC offset, and the weekday).",
            inputSchema: inputSchema,
            outputSchema: outputSchema,
            annotations: ToolAnnotations(readOnlyHint: true, idempotentHint: false, openWorldHint: false)
        ) { arguments, _ in
            let zone: ZoneDirectory.NamedZone
            if let identifier = arguments["timezone"]?.stringValue {
                guard let named = zones.zone(named: identifier) else {
                    return .error("Unknown time zone \"\(identifier)\". Use an IANA name such as Europe/Lisbon, America/New_York or UTC.")
                }
                zone = ZoneDirectory.NamedZone(name: identifier, zone: named)
            } else {
                zone = zones.systemZone()
            }
            let reading = ClockReading(date: now(), zone: zone.zone, name: zone.name)
            return CallToolResult(content: [.text(reading.text)], structuredContent: reading.json)
        }
    }
}

/// A moment as seen in one time zone.
struct ClockReading: Hashable, Sendable {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `2026-11-29T14:03:12+00:00`.
    let iso8601: String
    let timezone: String
    let utcOffsetSeconds: Int
    let weekday: String

    /// The reading of `date` in `zone`, reported under `name`.
    init(date: Date, zone: ZoneInfo, name: String) {
        let (seconds, _) = Self.split(date)
        let offset = zone.utcOffset(at: seconds)
        let time = CivilTime(secondsSince1970: seconds, utcOffset: offset)
        iso8601 = Self.format(time, offset: offset, milliseconds: nil)
        timezone = name
        utcOffsetSeconds = offset
        weekday = Self.weekdays[time.weekday]
    }

    /// `2026-11-29T14:03:12+00:00 (Europe/Lisbon, Sunday)`.
    ///
    /// Written into one string of the right size: this runs on every `clock_now` call, and an
    /// interpolation grew its string piece by piece.
    var text: String {
        let count = iso8601.utf8.count + timezone.utf8.count + weekday.utf8.count + 5
        return String(unsafeUninitializedCapacity: count) { buffer in
            var text = TextCursor(buffer)
            text.put(iso8601)
            text.put(" (")
            text.put(timezone)
            text.put(", ")
            text.put(weekday)
            text.put(")")
            return text.written
        }
    }

    /// The structured content: `iso8601`, `timezone`, `utcOffsetSeconds` and `weekday`.
    var json: JSONValue {
        // The keys are distinct by construction, so the object is built without a lookup per key.
        .object(
            JSONObject(uniqueEntries: [
                .init(key: "iso8601", value: .string(iso8601)), .init(key: "timezone", value: .string(timezone)),
                .init(key: "utcOffsetSeconds", value: .int(utcOffsetSeconds)), .init(key: "weekday", value: .string(weekday)),
            ]))
    }

    /// A UTC timestamp with milliseconds: `2026-11-29T14:03:12.123+00:00`.
    static func utcTimestamp(_ date: Date) -> String {
        let (seconds, milliseconds) = split(date)
        return format(CivilTime(secondsSince1970: seconds, utcOffset: 0), offset: 0, milliseconds: milliseconds)
    }

    /// Whole seconds since 1970 (rounded down) and the milliseconds after them (truncated),
    /// within the years 1…9999 that ISO 8601 timestamps can show.
    ///
    /// The fraction is taken from the time since 2001, which `Date` stores, as `Calendar` does.
    private static func split(_ date: Date) -> (seconds: Int64, milliseconds: Int) {
        // 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, relative to 2001-01-01T00:00:00Z.
        let raw = date.timeIntervalSinceReferenceDate
        let sinceReference = raw.isNaN ? 0 : min(max(raw, -63_113_904_000), 252_423_993_599)
        let whole = sinceReference.rounded(.down)
        let milliseconds = min(Int((sinceReference - whole) * 1_000), 999)
        return (Int64(whole) + 978_307_200, milliseconds)
    }

    private static func format(_ time: CivilTime, offset: Int, milliseconds: Int?) -> String {
        // Written digit by digit into one string of the right size: this runs on every
        // `clock_now` call, and building it from padded substrings allocated a string per field.
        let year = Int(clamping: time.year)
        let minutes = abs(offset) / 60
        // Every field's digits (wider than usual only for a zone file with an odd offset), the 8
        // separators and sign, and `.` with the milliseconds.
        let count =
            8 + digitCount(year, width: 4) + digitCount(time.month, width: 2) + digitCount(time.day, width: 2)
            + digitCount(time.hour, width: 2) + digitCount(time.minute, width: 2) + digitCount(time.second, width: 2)
            + digitCount(minutes / 60, width: 2) + digitCount(minutes % 60, width: 2)
            + (milliseconds.map { digitCount($0, width: 3) + 1 } ?? 0)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var text = TextCursor(buffer)
            text.put(year, width: 4)
            text.put(UInt8(ascii: "-"))
            text.put(time.month, width: 2)
            text.put(UInt8(ascii: "-"))
            text.put(time.day, width: 2)
            text.put(UInt8(ascii: "T"))
            text.put(time.hour, width: 2)
            text.put(UInt8(ascii: ":"))
            text.put(time.minute, width: 2)
            text.put(UInt8(ascii: ":"))
            text.put(time.second, width: 2)
            if let milliseconds {
                text.put(UInt8(ascii: "."))
                text.put(milliseconds, width: 3)
            }
            text.put(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            text.put(minutes / 60, width: 2)
            text.put(UInt8(ascii: ":"))
            text.put(minutes % 60, width: 2)
            return text.written
        }
    }

    /// The digits `value` takes when padded with zeros to `width`.
    fileprivate static func digitCount(_ value: Int, width: Int) -> Int {
        var digits = 1
        var rest = value.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return max(width, digits)
    }
}

/// Writes text into a string's uninitialized bytes, from the start.
///
/// A value passed `inout` rather than a count captured by nested functions, which the compiler
/// checks for exclusive access at run time on every write.
private struct TextCursor {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far; the caller sized `buffer` for all of them.
    private(set) var written = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func put(_ byte: UInt8) {
        buffer[written] = byte
        written += 1
    }

    mutating func put(_ piece: String) {
        var piece = piece
        written = piece.withUTF8 { bytes in
            UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: bytes) + written
        }
    }

    /// `value`'s decimal digits, zero-padded to `width` (wider only for a value that needs it).
    mutating func put(_ value: Int, width: Int) {
        let digits = ClockReading.digitCount(value, width: width)
        var rest = value.magnitude
        // From the last digit back.
        for index in stride(from: written + digits - 1, through: written, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        written += digits
    }
}
