import Testing

@testable import OnDeviceMCPExamples

@Suite("POSIX TZ strings")
struct POSIXTimeZoneRuleTests {
    /// A TZ string and what it should parse to.
    struct ParseCase: Sendable, CustomTestStringConvertible {
        let text: String
        let expected: POSIXTimeZoneRule
        var testDescription: String { text }
    }

    typealias Rule = POSIXTimeZoneRule

    static func change(_ day: Rule.Day, _ time: Int = 7_200) -> Rule.Change { Rule.Change(day: day, time: time) }

    static func lastSunday(_ month: Int) -> Rule.Day { .monthWeekDay(month: month, week: 5, weekday: 0) }

    static let parseCases: [ParseCase] = [
        ParseCase(text: "UTC0", expected: Rule(standardOffset: 0)),
        ParseCase(text: "<+0330>-3:30", expected: Rule(standardOffset: 12_600)),
        ParseCase(text: "<-0330>3:30", expected: Rule(standardOffset: -12_600)),
        ParseCase(text: "<+0545>-5:45", expected: Rule(standardOffset: 20_700)),
        ParseCase(text: "XXX-0:0:30", expected: Rule(standardOffset: 30)),
        ParseCase(text: "<+14>-14", expected: Rule(standardOffset: 50_400)),
        ParseCase(
            text: "CET-1CEST,M3.5.0,M10.5.0/3",
            expected: Rule(
                standardOffset: 3_600,
                daylightSaving: .init(
                    utcOffset: 7_200, start: change(lastSunday(3)), end: change(lastSunday(10), 10_800)))
        ),
        ParseCase(
            text: "EST5EDT,M3.2.0,M11.1.0",
            expected: Rule(
                standardOffset: -18_000,
                daylightSaving: .init(
                    utcOffset: -14_400, start: change(.monthWeekDay(month: 3, week: 2, weekday: 0)),
                    end: change(.monthWeekDay(month: 11, week: 1, weekday: 0))))
        ),
        // Without rules, the US rules apply (as in glibc).
        ParseCase(
            text: "EST5EDT",
            expected: Rule(
                standardOffset: -18_000,
                daylightSaving: .init(
                    utcOffset: -14_400, start: change(.monthWeekDay(month: 3, week: 2, weekday: 0)),
                    end: change(.monthWeekDay(month: 11, week: 1, weekday: 0))))
        ),
        ParseCase(
            text: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
            expected: Rule(
                standardOffset: 37_800,
                daylightSaving: .init(
                    utcOffset: 39_600, start: change(.monthWeekDay(month: 10, week: 1, weekday: 0)),
                    end: change(.monthWeekDay(month: 4, week: 1, weekday: 0))))
        ),
        ParseCase(
            text: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",
            expected: Rule(
                standardOffset: -7_200,
                daylightSaving: .init(
                    utcOffset: -3_600, start: change(lastSunday(3), -3_600), end: change(lastSunday(10), 0)))
        ),
        ParseCase(
            text: "IST-1GMT0,M10.5.0,M3.5.0/1",
            expected: Rule(
                standardOffset: 3_600,
                daylightSaving: .init(
                    utcOffset: 0, start: change(lastSunday(10)), end: change(lastSunday(3), 3_600)))
        ),
        ParseCase(
            text: "AAA3BBB,J60/2,J300/2:30:15",
            expected: Rule(
                standardOffset: -10_800,
                daylightSaving: .init(
                    utcOffset: -7_200, start: change(.julian(60)), end: change(.julian(300), 9_015)))
        ),
        ParseCase(
            text: "EST5EDT,0/0,J365/25",
            expected: Rule(
                standardOffset: -18_000,
                daylightSaving: .init(
                    utcOffset: -14_400, start: change(.zeroBased(0), 0), end: change(.julian(365), 90_000)))
        ),
        ParseCase(
            text: "XXX0YYY,M3.5.0/-167,M10.5.0/+167",
            expected: Rule(
                standardOffset: 0,
                daylightSaving: .init(
                    utcOffset: 3_600, start: change(lastSunday(3), -601_200), end: change(lastSunday(10), 601_200)))
        ),
    ]

    @Test("Valid TZ strings parse", arguments: parseCases)
    func parses(_ example: ParseCase) throws {
        #expect(try POSIXTimeZoneRule(parsing: example.text) == example.expected)
    }

    @Test(
        "Invalid TZ strings are rejected",
        arguments: [
            "", "0", "AB0", "EST", "EST+", "EST25", "EST5:60", "<+03", "<+0>-0", "EST5EDT,", "EST5EDT,M3.2.0",
            "EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,J0,J365",
            "EST5EDT,J366,J1", "EST5EDT,366,1", "EST5EDT,M3.2.0/168,M11.1.0", "EST5EDT,M3.2.0,M11.1.0x",
            "EST5EDT4x", "CET-1CEST,M3.5.0,M10.5.0/3,extra", "EST5EDT,M3.2.0/2:60,M11.1.0",
        ])
    func rejects(_ text: String) {
        #expect(throws: POSIXTimeZoneRule.ParseError.self) { try POSIXTimeZoneRule(parsing: text) }
    }

    static let offsetCases: [OffsetCase] = [
        OffsetCase("AAA3BBB,J60/2,J300/2", "2024-03-01T04:59:59Z", 1_709_269_199, "-03:00:00"),
        OffsetCase("AAA3BBB,J60/2,J300/2", "2024-03-01T05:00:00Z", 1_709_269_200, "-02:00:00"),
        OffsetCase("AAA3BBB,J60/2,J300/2", "2025-02-28T23:00:00Z", 1_740_783_600, "-03:00:00"),
        OffsetCase("AAA3BBB,J60/2,J300/2", "2025-03-01T05:00:00Z", 1_740_805_200, "-02:00:00"),
        OffsetCase("AAA3BBB,J60/2,J300/2", "2024-10-27T03:59:59Z", 1_730_001_599, "-02:00:00"),
        OffsetCase("AAA3BBB,J60/2,J300/2", "2024-10-27T04:00:00Z", 1_730_001_600, "-03:00:00"),
        OffsetCase("AAA3BBB,59/2,299/2", "2024-02-29T04:59:59Z", 1_709_182_799, "-03:00:00"),
        OffsetCase("AAA3BBB,59/2,299/2", "2024-02-29T05:00:00Z", 1_709_182_800, "-02:00:00"),
        OffsetCase("AAA3BBB,59/2,299/2", "2025-03-01T04:59:59Z", 1_740_805_199, "-03:00:00"),
        OffsetCase("AAA3BBB,59/2,299/2", "2025-03-01T05:00:00Z", 1_740_805_200, "-02:00:00"),
        OffsetCase("EST5EDT", "2026-03-08T06:59:59Z", 1_772_953_199, "-05:00:00"),
        OffsetCase("EST5EDT", "2026-03-08T07:00:00Z", 1_772_953_200, "-04:00:00"),
        OffsetCase("EST5EDT,M3.2.0,M11.1.0", "2026-11-01T05:59:59Z", 1_793_512_799, "-04:00:00"),
        OffsetCase("EST5EDT,M3.2.0,M11.1.0", "2026-11-01T06:00:00Z", 1_793_512_800, "-05:00:00"),
        // Daylight-saving time all year (RFC 8536, section 3.3.1).
        OffsetCase("EST5EDT,0/0,J365/25", "2026-01-01T00:00:00Z", 1_767_225_600, "-04:00:00"),
        OffsetCase("EST5EDT,0/0,J365/25", "2026-07-01T00:00:00Z", 1_782_864_000, "-04:00:00"),
        OffsetCase("EST5EDT,0/0,J365/25", "2026-12-31T23:59:59Z", 1_798_761_599, "-04:00:00"),
        OffsetCase("<+0330>-3:30", "2026-06-01T00:00:00Z", 1_780_272_000, "+03:30:00"),
        OffsetCase("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "2026-03-29T00:59:59Z", 1_774_745_999, "-03:00:00"),
        OffsetCase("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "2026-03-29T01:00:00Z", 1_774_746_000, "-02:00:00"),
        OffsetCase("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "2026-10-25T00:59:59Z", 1_792_889_999, "-02:00:00"),
        OffsetCase("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "2026-10-25T01:00:00Z", 1_792_890_000, "-03:00:00"),
        // The southern pattern: daylight-saving time across the new year.
        OffsetCase("AAA-10BBB-11:30,M10.1.0,M4.1.0/3", "2026-01-15T00:00:00Z", 1_768_435_200, "+11:30:00"),
        OffsetCase("AAA-10BBB-11:30,M10.1.0,M4.1.0/3", "2026-04-04T15:29:59Z", 1_775_316_599, "+11:30:00"),
        OffsetCase("AAA-10BBB-11:30,M10.1.0,M4.1.0/3", "2026-04-04T15:30:00Z", 1_775_316_600, "+10:00:00"),
        OffsetCase("AAA-10BBB-11:30,M10.1.0,M4.1.0/3", "2026-07-15T00:00:00Z", 1_784_073_600, "+10:00:00"),
        OffsetCase("AAA-10BBB-11:30,M10.1.0,M4.1.0/3", "2026-10-03T15:59:59Z", 1_791_043_199, "+10:00:00"),
        OffsetCase("AAA-10BBB-11:30,M10.1.0,M4.1.0/3", "2026-10-03T16:00:00Z", 1_791_043_200, "+11:30:00"),
        // Negative daylight saving (Ireland).
        OffsetCase("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-01-10T00:00:00Z", 1_768_003_200, "+00:00:00"),
        OffsetCase("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-03-29T00:59:59Z", 1_774_745_999, "+00:00:00"),
        OffsetCase("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-03-29T01:00:00Z", 1_774_746_000, "+01:00:00"),
        OffsetCase("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-07-10T00:00:00Z", 1_783_641_600, "+01:00:00"),
        // Extended change times (RFC 8536): −167 h and 167 h.
        OffsetCase("XXX0YYY,M3.5.0/-167,M10.5.0/167", "2026-03-22T00:59:59Z", 1_774_141_199, "+00:00:00"),
        OffsetCase("XXX0YYY,M3.5.0/-167,M10.5.0/167", "2026-03-22T01:00:00Z", 1_774_141_200, "+01:00:00"),
        OffsetCase("XXX0YYY,M3.5.0/-167,M10.5.0/167", "2026-10-31T21:59:59Z", 1_793_483_999, "+01:00:00"),
        OffsetCase("XXX0YYY,M3.5.0/-167,M10.5.0/167", "2026-10-31T22:00:00Z", 1_793_484_000, "+00:00:00"),
        OffsetCase("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45", "2100-09-25T13:59:59Z", 4_125_563_999, "+12:45:00"),
        OffsetCase("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45", "2100-09-25T14:00:00Z", 4_125_564_000, "+13:45:00"),
    ]

    @Test("Offsets from TZ strings match glibc", arguments: offsetCases)
    func offsets(_ example: OffsetCase) throws {
        let rule = try POSIXTimeZoneRule(parsing: example.zone)
        #expect(rule.utcOffset(at: example.seconds) == example.offsetSeconds)
    }
}
