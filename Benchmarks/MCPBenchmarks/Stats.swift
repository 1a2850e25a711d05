import Foundation

/// Helpers for the runtime benchmarks, which time async calls one by one or by the batch.
enum Stats {
    static func nanoseconds(_ duration: Duration) -> Double { duration.nanoseconds }

    /// The value below which `fraction` of the sorted samples lie (nearest rank).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Runs `round` `rounds` times and returns the median of the rates it reports.
    static func medianRate(rounds: Int, _ round: () async throws -> Double) async rethrows -> (median: Double, all: [Double]) {
        var rates: [Double] = []
        for _ in 0..<rounds { rates.append(try await round()) }
        return (median(rates), rates)
    }

    /// Calls per second for `calls` calls that took `elapsed`.
    static func rate(_ calls: Int, _ elapsed: Duration) -> Double {
        Double(calls) / (elapsed.nanoseconds / 1e9)
    }

    static func formatRate(_ rate: Double) -> String {
        guard rate.isFinite else { return "n/a" }
        let rounded = Int(rate.rounded())
        var digits = Array(String(rounded))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits) + "/s"
    }

    static func formatPercent(_ fraction: Double) -> String {
        fraction.isFinite ? String(format: "%.0f %%", fraction * 100) : "n/a"
    }

    static func row(_ cells: [(String, Int)], leftColumns: Int = 1) -> String {
        cells.enumerated().map { index, cell in
            index < leftColumns ? Harness.pad(cell.0, cell.1) : Harness.padLeft(cell.0, cell.1)
        }.joined(separator: " ")
    }
}
