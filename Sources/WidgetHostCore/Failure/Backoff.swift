import Foundation

/// After a failure a widget waits `initial · 2^(n−1)`, at most `maximum`; a success resets it.
public struct Backoff: Sendable, Hashable, Codable {
    public private(set) var consecutiveFailures = 0
    public private(set) var until: Date?

    public init() {}

    public mutating func recordFailure(at now: Date, rules: BackoffRules) {
        consecutiveFailures += 1
        let exponent = Double(min(consecutiveFailures - 1, 62))
        until = now + min(rules.initial * pow(2, exponent), rules.maximum)
    }

    public mutating func recordSuccess() {
        consecutiveFailures = 0
        until = nil
    }

    /// The backoff gate: no reload before this.
    public func earliestStart(after now: Date) -> Date {
        guard let until else { return now }
        return max(now, until)
    }
}
