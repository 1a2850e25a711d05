import Foundation

/// Times a closure the way every benchmark here does: warm up, then several rounds of
/// many iterations, and report the median round's time per iteration.
///
/// The median of rounds keeps one descheduled round from moving the figure; the number
/// of iterations per round is chosen so that a round lasts about `roundTarget`.
struct Measurement {
    let name: String
    let nanosecondsPerIteration: Double

    var microseconds: Double { nanosecondsPerIteration / 1_000 }
}

enum Harness {
    static let roundTarget: Duration = .milliseconds(40)
    static let rounds = 9

    /// Runs `body` repeatedly and returns the median time of one call.
    static func measure(_ name: String, _ body: () throws -> Void) rethrows -> Measurement {
        let clock = ContinuousClock()
        // Warm up and calibrate.
        var iterations = 1
        while true {
            let elapsed = try clock.measure { for _ in 0..<iterations { try body() } }
            if elapsed >= roundTarget / 4 || iterations >= 1 << 24 { break }
            iterations *= 2
        }
        iterations = max(1, iterations * 4)
        var perIteration: [Double] = []
        for _ in 0..<rounds {
            let elapsed = try clock.measure { for _ in 0..<iterations { try body() } }
            perIteration.append(elapsed.nanoseconds / Double(iterations))
        }
        perIteration.sort()
        return Measurement(name: name, nanosecondsPerIteration: perIteration[perIteration.count / 2])
    }

    /// Formats a duration in nanoseconds with a unit that keeps three significant digits.
    static func format(nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: String(format: "%.0f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1_000)
        default: String(format: "%.2f ms", nanoseconds / 1_000_000)
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Keeps the optimizer from deleting work whose result is unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
