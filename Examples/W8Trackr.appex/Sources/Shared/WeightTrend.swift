import Foundation

/// Which way the weight moved over the last seven days.
public enum WeightTrend: String, Codable, Sendable {
    case up, down, neutral
    /// Fewer than two weigh-ins in the window: nothing to compare.
    case unknown

    /// A change smaller than this (in the preferred unit) reads as no change.
    public static let neutralThreshold = 0.5
    public static let windowDays = 7

    /// The trend from the oldest to the newest weigh-in of the seven days before `now`.
    public static func over(_ weighIns: [WeighIn], unit: WeightUnit, now: Date, calendar: Calendar = .current)
        -> WeightTrend
    {
        let recent = window(weighIns, now: now, calendar: calendar)
        guard recent.count >= 2, let oldest = recent.first, let newest = recent.last else { return .unknown }
        let change = newest.weightValue(in: unit) - oldest.weightValue(in: unit)
        if abs(change) < neutralThreshold { return .neutral }
        return change > 0 ? .up : .down
    }

    /// The weigh-ins of the seven days before `now` (none from the future), oldest first.
    public static func window(_ weighIns: [WeighIn], now: Date, calendar: Calendar = .current) -> [WeighIn] {
        let start = calendar.date(byAdding: .day, value: -windowDays, to: now) ?? now
        return weighIns.filter { $0.date >= start && $0.date <= now }.sorted { $0.date < $1.date }
    }

    /// The SF Symbol the widget shows for the trend.
    public var systemImage: String {
        switch self {
        case .up: "arrow.up"
        case .down: "arrow.down"
        case .neutral, .unknown: "minus"
        }
    }
}
