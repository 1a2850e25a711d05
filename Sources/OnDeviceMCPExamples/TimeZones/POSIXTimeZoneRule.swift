/// A time zone described by a POSIX `TZ` string, such as `CET-1CEST,M3.5.0,M10.5.0/3`.
///
/// TZif files end with one (their "footer") for the instants after their last transition;
/// the `TZ` environment variable may hold one too. The syntax is POSIX's with RFC 8536's
/// extensions: `std offset [dst [offset] [,start[/time],end[/time]]]`, where
///
/// - a name is three or more letters, or `<…>` around letters, digits, `+` and `-`;
/// - an offset is `[+|-]hh[:mm[:ss]]` *west* of Greenwich (so `CET-1` is UTC+1), 0 to 24 hours;
/// - a date is `Jn` (day 1…365, February 29 never counted), `n` (day 0…365, counted) or
///   `Mm.w.d` (weekday `d`, 0 = Sunday, of week `w` of month `m`; week 5 is the last);
/// - a time is `[+|-]hh[:mm[:ss]]` of local time then in effect, −167 to 167 hours,
///   02:00:00 when left out.
///
/// Without `dst` the zone has no daylight-saving time; `dst` without an offset is one hour
/// ahead of standard time; `dst` without rules uses the US rules, `M3.2.0,M11.1.0`, as glibc does.
struct POSIXTimeZoneRule: Hashable, Sendable {
    /// A day of the year on which daylight-saving time starts or ends.
    enum Day: Hashable, Sendable {
        /// `Jn`: day 1…365, not counting February 29.
        case julian(Int)
        /// `n`: day 0…365, counting February 29.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `weekday` (0 = Sunday) of week `week` (1…5; 5 = last) of `month`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// When a change happens: a day and a time of day in the local time in effect before it.
    struct Change: Hashable, Sendable {
        var day: Day
        /// Seconds after local midnight; −167 h to 167 h.
        var time: Int
    }

    /// Daylight-saving time: its offset and when it starts and ends each year.
    struct DaylightSaving: Hashable, Sendable {
        /// Seconds east of UTC during daylight-saving time.
        var utcOffset: Int
        var start: Change
        var end: Change
    }

    /// Why a `TZ` string was rejected.
    struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The rejected string.
        let text: String
        /// What is wrong with it.
        let reason: String

        var description: String { "invalid POSIX TZ string \"\(text)\": \(reason)" }
    }

    /// Seconds east of UTC during standard time.
    var standardOffset: Int
    /// `nil` when the zone keeps standard time all year.
    var daylightSaving: DaylightSaving?

    /// A zone with a fixed offset and no daylight-saving time.
    init(standardOffset: Int, daylightSaving: DaylightSaving? = nil) {
        self.standardOffset = standardOffset
        self.daylightSaving = daylightSaving
    }

    /// Parses a `TZ` string (without a leading `:`).
    ///
    /// - Throws: ``ParseError`` when `text` does not follow the syntax above.
    init(parsing text: String) throws(ParseError) {
        var scanner = Scanner(bytes: Array(text.utf8)[...])
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }

        guard scanner.name() else { throw fail("expected a standard-time name") }
        guard let standardWest = scanner.duration(maximumHours: 24) else {
            throw fail("expected the standard-time offset")
        }
        standardOffset = -standardWest
        guard !scanner.isAtEnd else {
            daylightSaving = nil
            return
        }
        guard scanner.name() else { throw fail("expected a daylight-saving-time name") }
        var daylightOffset = standardOffset + 3_600
        if let next = scanner.peek, next != UInt8(ascii: ",") {
            guard let daylightWest = scanner.duration(maximumHours: 24) else {
                throw fail("expected the daylight-saving-time offset")
            }
            daylightOffset = -daylightWest
        }
        let start: Change
        let end: Change
        if scanner.isAtEnd {
            start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7_200)
            end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7_200)
        } else {
            guard scanner.take(UInt8(ascii: ",")), let first = scanner.change() else {
                throw fail("expected the start of daylight-saving time")
            }
            guard scanner.take(UInt8(ascii: ",")), let second = scanner.change() else {
                throw fail("expected the end of daylight-saving time")
            }
            guard scanner.isAtEnd else { throw fail("unexpected text after the rules") }
            (start, end) = (first, second)
        }
        daylightSaving = DaylightSaving(utcOffset: daylightOffset, start: start, end: end)
    }

    /// The offset east of UTC, in seconds, at `seconds` since 1970-01-01T00:00:00Z.
    func utcOffset(at seconds: Int64) -> Int {
        isDaylightSaving(at: seconds) ? (daylightSaving?.utcOffset ?? standardOffset) : standardOffset
    }

    /// Whether daylight-saving time is in effect at `seconds` since 1970-01-01T00:00:00Z.
    ///
    /// The changes of the year that contains the instant in standard time decide: in the
    /// northern pattern (start before end) daylight-saving time runs from start to end;
    /// in the southern one it runs from start to the end of the year and from the start of
    /// the year to end.
    func isDaylightSaving(at seconds: Int64) -> Bool {
        guard let daylightSaving else { return false }
        let year = CivilTime(secondsSince1970: seconds, utcOffset: standardOffset).year
        // A change's time is in the local time in effect before it.
        let start = Self.instant(of: daylightSaving.start, in: year) - Int64(standardOffset)
        let end = Self.instant(of: daylightSaving.end, in: year) - Int64(daylightSaving.utcOffset)
        if start < end {
            return start <= seconds && seconds < end
        }
        return !(end <= seconds && seconds < start)
    }

    /// `change` in `year` as local seconds since 1970-01-01T00:00:00 (no offset applied).
    static func instant(of change: Change, in year: Int64) -> Int64 {
        let days: Int64
        switch change.day {
        case .julian(let number):
            // Day 60 is March 1 whether or not the year has a February 29.
            let leapDay: Int64 = CivilTime.isLeapYear(year) && number >= 60 ? 1 : 0
            days = CivilTime.days(year: year, month: 1, day: 1) + Int64(number - 1) + leapDay
        case .zeroBased(let number):
            days = CivilTime.days(year: year, month: 1, day: 1) + Int64(number)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilTime.days(year: year, month: month, day: 1)
            var day = 1 + (weekday - CivilTime.weekday(ofDays: first) + 7) % 7 + 7 * (week - 1)
            let length = CivilTime.daysInMonth(month, year: year)
            while day > length { day -= 7 }
            days = first + Int64(day - 1)
        }
        return days * 86_400 + Int64(change.time)
    }
}

/// Reads a `TZ` string left to right.
private struct Scanner {
    var bytes: ArraySlice<UInt8>

    var isAtEnd: Bool { bytes.isEmpty }
    var peek: UInt8? { bytes.first }

    /// Consumes `byte` when it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard bytes.first == byte else { return false }
        bytes.removeFirst()
        return true
    }

    /// Consumes a zone name: three or more letters, or `<…>` around three or more letters,
    /// digits, `+` and `-`.
    mutating func name() -> Bool {
        if take(UInt8(ascii: "<")) {
            let length = bytes.prefix { Self.isLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }.count
            bytes.removeFirst(length)
            return length >= 3 && take(UInt8(ascii: ">"))
        }
        let length = bytes.prefix(while: Self.isLetter).count
        bytes.removeFirst(length)
        return length >= 3
    }

    /// Consumes `[+|-]hh[:mm[:ss]]` and returns it in seconds, or `nil` when it is missing or
    /// out of range.
    mutating func duration(maximumHours: Int) -> Int? {
        var sign = 1
        if take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            _ = take(UInt8(ascii: "+"))
        }
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * 3_600
        if take(UInt8(ascii: ":")) {
            guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(UInt8(ascii: ":")) {
                guard let extra = number(maximumDigits: 2), extra < 60 else { return nil }
                seconds += extra
            }
        }
        return sign * seconds
    }

    /// Consumes `date[/time]`.
    mutating func change() -> POSIXTimeZoneRule.Change? {
        let day: POSIXTimeZoneRule.Day
        if take(UInt8(ascii: "J")) {
            guard let number = number(maximumDigits: 3), (1...365).contains(number) else { return nil }
            day = .julian(number)
        } else if take(UInt8(ascii: "M")) {
            guard let month = number(maximumDigits: 2), (1...12).contains(month), take(UInt8(ascii: ".")),
                let week = number(maximumDigits: 1), (1...5).contains(week), take(UInt8(ascii: ".")),
                let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let number = number(maximumDigits: 3), (0...365).contains(number) else { return nil }
            day = .zeroBased(number)
        }
        var time = 7_200
        if take(UInt8(ascii: "/")) {
            guard let value = duration(maximumHours: 167) else { return nil }
            time = value
        }
        return POSIXTimeZoneRule.Change(day: day, time: time)
    }

    /// Consumes one to `maximumDigits` decimal digits.
    private mutating func number(maximumDigits: Int) -> Int? {
        let digits = bytes.prefix(while: Self.isDigit)
        guard !digits.isEmpty, digits.count <= maximumDigits else { return nil }
        bytes.removeFirst(digits.count)
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
