/// A date and time of day in the proleptic Gregorian calendar, computed with integer
/// arithmetic (no `Calendar`).
///
/// The day arithmetic is Howard Hinnant's `days_from_civil` and `civil_from_days`, exact for
/// every year an `Int64` count of seconds can reach.
struct CivilTime: Hashable, Sendable {
    var year: Int64
    /// 1 (January) to 12.
    var month: Int
    /// 1 to 31.
    var day: Int
    /// 0 to 23.
    var hour: Int
    /// 0 to 59.
    var minute: Int
    /// 0 to 59.
    var second: Int
    /// 0 (Sunday) to 6 (Saturday).
    var weekday: Int

    /// The local date and time `utcOffset` seconds east of UTC, at `seconds` since 1970-01-01T00:00:00Z.
    ///
    /// `seconds` must be within a few billion years of 1970 (callers clamp to years 1…9999).
    init(secondsSince1970 seconds: Int64, utcOffset: Int) {
        let local = seconds + Int64(utcOffset)
        let days = Self.floorDivide(local, 86_400)
        let secondOfDay = Int(local - days * 86_400)
        (year, month, day) = Self.civil(fromDays: days)
        hour = secondOfDay / 3_600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        weekday = Self.weekday(ofDays: days)
    }

    /// The number of days from 1970-01-01 to `year`-`month`-`day` (negative before it).
    static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day `days` days after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The weekday, 0 (Sunday) to 6, of the day `days` days after 1970-01-01 (a Thursday).
    static func weekday(ofDays days: Int64) -> Int {
        Int(floorModulo(days + 4, 7))
    }

    /// Whether `year` has a February 29.
    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` of `year`.
    static func daysInMonth(_ month: Int, year: Int64) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `value / divisor` rounded towards negative infinity (`divisor` > 0).
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// `value mod divisor` in `0..<divisor` (`divisor` > 0).
    static func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
