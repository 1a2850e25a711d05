import Foundation
internal import MCP
internal import MCPCore

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

    static func register(on server: MCPServer, now: @escaping @Sendable () -> Date) async throws {
        try await server.register(
            name: name,
            title: "Current time",
            description: "Returns the current date and time in a time zone (ISO 8601 with UTC offset, and the weekday).",
            inputSchema: inputSchema,
            outputSchema: outputSchema,
            annotations: ToolAnnotations(readOnlyHint: true, idempotentHint: false, openWorldHint: false)
        ) { arguments, _ in
            let zone: TimeZone
            var name: String?
            if let identifier = arguments["timezone"]?.stringValue {
                guard let named = TimeZone(identifier: identifier) else {
                    return .error("Unknown time zone \"\(identifier)\". Use an IANA name such as Europe/Lisbon, America/New_York or UTC.")
                }
                zone = named
                // Foundation reports "UTC" as "GMT"; answer with the name the caller used.
                name = identifier
            } else {
                zone = TimeZone.current
            }
            let reading = ClockReading(date: now(), timeZone: zone, name: name)
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

    /// - Parameter name: The zone's name to report; Foundation's identifier when `nil`.
    init(date: Date, timeZone: TimeZone, name: String? = nil) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let offset = timeZone.secondsFromGMT(for: date)
        iso8601 = Self.format(parts, offset: offset, fraction: nil)
        timezone = name ?? timeZone.identifier
        utcOffsetSeconds = offset
        weekday = Self.weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
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
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        return format(parts, offset: 0, fraction: (parts.nanosecond ?? 0) / 1_000_000)
    }

    private static func format(_ parts: DateComponents, offset: Int, fraction milliseconds: Int?) -> String {
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(abs(value ?? 0))
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))"
        text += "T\(padded(parts.hour, 2)):\(padded(parts.minute, 2)):\(padded(parts.second, 2))"
        if let milliseconds { text += "." + padded(milliseconds, 3) }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        text += "\(sign)\(padded(minutes / 60, 2)):\(padded(minutes % 60, 2))"
        return text
    }
}
