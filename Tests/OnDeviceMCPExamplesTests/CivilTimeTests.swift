import Testing

@testable import OnDeviceMCPExamples

@Suite("Civil dates from seconds")
struct CivilTimeTests {
    /// Seconds since 1970 in UTC and the date, time and weekday they fall on.
    struct Case: Sendable, CustomTestStringConvertible {
        let seconds: Int64
        let expected: CivilTime
        var testDescription: String { "\(seconds)" }
    }

    static func civil(_ year: Int64, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, weekday: Int) -> CivilTime {
        var time = CivilTime(secondsSince1970: 0, utcOffset: 0)
        (time.year, time.month, time.day, time.hour, time.minute, time.second, time.weekday) = (
            year, month, day, hour, minute, second, weekday
        )
        return time
    }

    @Test(
        "Known instants",
        arguments: [
            Case(seconds: 0, expected: civil(1970, 1, 1, 0, 0, 0, weekday: 4)),
            Case(seconds: -1, expected: civil(1969, 12, 31, 23, 59, 59, weekday: 3)),
            Case(seconds: 951_782_400, expected: civil(2000, 2, 29, 0, 0, 0, weekday: 2)),
            Case(seconds: 1_795_960_992, expected: civil(2026, 11, 29, 14, 3, 12, weekday: 0)),
            Case(seconds: 4_107_542_400, expected: civil(2100, 3, 1, 0, 0, 0, weekday: 1)),
            Case(seconds: -62_135_596_800, expected: civil(1, 1, 1, 0, 0, 0, weekday: 1)),
            Case(seconds: 253_402_300_799, expected: civil(9999, 12, 31, 23, 59, 59, weekday: 5)),
        ])
    func known(_ example: Case) {
        #expect(CivilTime(secondsSince1970: example.seconds, utcOffset: 0) == example.expected)
    }

    @Test("An offset moves the local time, across the date line too")
    func offset() {
        let time = CivilTime(secondsSince1970: 1_795_960_992, utcOffset: 50_400)
        #expect((time.year, time.month, time.day, time.hour, time.minute, time.weekday) == (2026, 11, 30, 4, 3, 1))
        let behind = CivilTime(secondsSince1970: 0, utcOffset: -12_600)
        #expect((behind.year, behind.month, behind.day, behind.hour, behind.minute) == (1969, 12, 31, 20, 30))
    }

    @Test("Days and dates round-trip from year -1000 to 3000")
    func roundTrip() {
        var mismatches = 0
        var weekday = CivilTime.weekday(ofDays: CivilTime.days(year: -1_000, month: 1, day: 1))
        for days in CivilTime.days(year: -1_000, month: 1, day: 1)...CivilTime.days(year: 3_000, month: 12, day: 31) {
            let (year, month, day) = CivilTime.civil(fromDays: days)
            if CivilTime.days(year: year, month: month, day: day) != days || day > CivilTime.daysInMonth(month, year: year)
                || CivilTime.weekday(ofDays: days) != weekday
            {
                mismatches += 1
            }
            weekday = (weekday + 1) % 7
        }
        #expect(mismatches == 0)
    }
}
