import Foundation

/// A sample of durations or rates and the order statistics the table reports.
struct Sample: Sendable {
    private(set) var values: [Double]

    init(_ values: [Double] = []) { self.values = values }

    mutating func add(_ value: Double) { values.append(value) }

    var count: Int { values.count }

    /// The value below which `fraction` of the sample lies (nearest rank).
    func quantile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { quantile(0.5) }
    var p99: Double { quantile(0.99) }
    var mean: Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }
}

/// Monotonic time in seconds, for measuring intervals.
@inline(__always)
func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Times `body` and returns microseconds.
@inline(__always)
func microseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicSeconds()
    try body()
    return (monotonicSeconds() - start) * 1e6
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
