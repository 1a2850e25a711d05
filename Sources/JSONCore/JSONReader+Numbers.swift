/// Numbers: integers exactly, other numbers to the nearest `Double`.
extension Parser {
    mutating func parseNumber() throws(JSONReadError) -> JSONValue {
        let start = position
        var negative = false
        if bytes[position] == ASCII.minus {
            negative = true
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw JSONReadError(.invalidNumber, at: start, "'-' must be followed by a digit")
        }
        // Integer part.
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var mantissaOverflowed = false
        if bytes[position] == ASCII.zero {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw JSONReadError(.invalidNumber, at: start, "numbers must not have leading zeros")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) {
                accumulate(bytes[position], into: &mantissa, digits: &significantDigits, overflowed: &mantissaOverflowed)
                position += 1
            }
        }
        var isInteger = true
        var fractionDigits = 0
        if position < bytes.count, bytes[position] == ASCII.dot {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONReadError(.invalidNumber, at: start, "a decimal point must be followed by a digit")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                accumulate(bytes[position], into: &mantissa, digits: &significantDigits, overflowed: &mantissaOverflowed)
                fractionDigits += 1
                position += 1
            }
        }
        var exponent = 0
        if position < bytes.count, bytes[position] == ASCII.lowerE || bytes[position] == ASCII.upperE {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == ASCII.plus || bytes[position] == ASCII.minus {
                exponentNegative = bytes[position] == ASCII.minus
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONReadError(.invalidNumber, at: start, "an exponent must have at least one digit")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                if exponent < 100_000 {
                    exponent = exponent * 10 + Int(bytes[position] - ASCII.zero)
                }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger && !mantissaOverflowed {
            if negative {
                if mantissa <= UInt64(Int.max) {
                    return .int(-Int(mantissa))
                }
                if mantissa == UInt64(Int.max) + 1 {
                    return .int(Int.min)
                }
            } else if mantissa <= UInt64(Int.max) {
                return .int(Int(mantissa))
            }
        }

        // Clinger's fast path: exact when the digits and the power of ten are both exact doubles.
        let decimalExponent = exponent - fractionDigits
        if !mantissaOverflowed, mantissa <= (1 << 53), abs(decimalExponent) <= 22 {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= exactPowersOfTen[-decimalExponent]
            } else {
                value *= exactPowersOfTen[decimalExponent]
            }
            return .double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else {
            throw JSONReadError(.invalidNumber, at: start, "\(text) is not a number")
        }
        guard value.isFinite else {
            throw JSONReadError(.numberOutOfRange, at: start, "\(text) is too large to represent as a 64-bit floating-point number")
        }
        return .double(value)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool {
        byte &- ASCII.zero < 10
    }

    @inline(__always)
    func accumulate(_ digit: UInt8, into mantissa: inout UInt64, digits: inout Int, overflowed: inout Bool) {
        if mantissa == 0 && digit == ASCII.zero { return }  // leading zeros of a fraction are not significant
        digits += 1
        let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - ASCII.zero))
        if overflow1 || overflow2 {
            overflowed = true
        } else {
            mantissa = sum
        }
    }
}

/// Powers of ten that a `Double` holds exactly, for the fast number path.
let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
