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
    var text: String { "\(iso8601) (\(timezone), \(weekday))" }

    var json: JSONValue {
        [
            "iso8601": .string(iso8601), "timezone": .string(timezone),
            "utcOffsetSeconds": .int(utcOffsetSeconds), "weekday": .string(weekday),
        ]
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
        // Written digit by digit into one buffer: this runs on every `clock_now` call, and
        // building it from padded substrings allocated a string per field.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        func append(_ value: Int, width: Int) {
            // Zero-padded to `width` (wider only for a value that needs it), written from the
            // last digit back.
            var rest = value.magnitude
            var digits = 1
            var probe = rest / 10
            while probe > 0 {
                digits += 1
                probe /= 10
            }
            let count = max(width, digits)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
            var index = bytes.count - 1
            repeat {
                bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                index -= 1
            } while rest > 0
        }
        append(Int(clamping: time.year), width: 4)
        bytes.append(UInt8(ascii: "-"))
        append(time.month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        append(time.day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        append(time.hour, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(time.minute, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(time.second, width: 2)
        if let milliseconds {
            bytes.append(UInt8(ascii: "."))
            append(milliseconds, width: 3)
        }
        bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let minutes = abs(offset) / 60
        append(minutes / 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(minutes % 60, width: 2)
        return String(decoding: bytes, as: UTF8.self)
    }
}
