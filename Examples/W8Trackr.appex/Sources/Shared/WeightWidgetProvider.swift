import Foundation
import WidgetKit

/// One moment of the weight widget: what the app has recorded, in the preferred unit.
public struct WeightWidgetEntry: TimelineEntry, Hashable {
    public struct ChartDataPoint: Codable, Sendable, Hashable {
        public let date: Date
        public let weight: Double
    }

    public let date: Date
    public let family: WidgetFamily
    /// The latest weigh-in; nil before the first one (the empty state).
    public let currentWeight: Double?
    public let weightUnit: WeightUnit
    public let goalWeight: Double?
    public let trend: WeightTrend
    /// The last seven days, oldest first, for the large widget's sparkline; empty otherwise.
    public let recentEntries: [ChartDataPoint]
}

/// Reads the weigh-ins and preferences from the App Group and reloads every four hours;
/// the app reloads it whenever it records a weigh-in or changes the unit or goal.
public struct WeightWidgetProvider: TimelineProvider {
    public static let refreshInterval = 4

    let container: @Sendable () -> W8TrackrContainer?
    let now: @Sendable () -> Date

    /// `container` and `now` are seams for tests; the widget uses the App Group and the clock.
    public init(
        container: @escaping @Sendable () -> W8TrackrContainer? = { W8TrackrContainer.shared },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.container = container
        self.now = now
    }

    public func placeholder(in context: Context) -> WeightWidgetEntry {
        // Sample data, without touching the App Group: the placeholder must be instant.
        let now = now()
        let points = (0..<7).map { day in
            WeightWidgetEntry.ChartDataPoint(
                date: now.addingTimeInterval(Double(day - 6) * 86_400), weight: 172 - Double(day) * 0.5)
        }
        return WeightWidgetEntry(
            date: now, family: context.family, currentWeight: 169, weightUnit: .lb, goalWeight: 160, trend: .down,
            recentEntries: context.family == .systemLarge ? points : [])
    }

    public func getSnapshot(in context: Context, completion: @escaping @Sendable (WeightWidgetEntry) -> Void) {
        completion(currentEntry(family: context.family, now: now()))
    }

    public func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<WeightWidgetEntry>) -> Void) {
        let now = now()
        let entry = currentEntry(family: context.family, now: now)
        let nextRefresh = Calendar.current.date(byAdding: .hour, value: Self.refreshInterval, to: now) ?? now
        completion(Timeline(entries: [entry], policy: .after(nextRefresh)))
    }

    func currentEntry(family: WidgetFamily, now: Date) -> WeightWidgetEntry {
        // Unreadable data shows as no data: a widget has nowhere to report an error.
        let weighIns = (try? container()?.weighIns()) ?? []
        let preferences = (try? container()?.preferences()) ?? WeightPreferences()
        let unit = preferences.preferredWeightUnit
        let upToNow = weighIns.filter { $0.date <= now }
        let recent =
            family == .systemLarge
            ? WeightTrend.window(upToNow, now: now).map {
                WeightWidgetEntry.ChartDataPoint(date: $0.date, weight: Self.rounded($0.weightValue(in: unit)))
            } : []
        return WeightWidgetEntry(
            date: now, family: family, currentWeight: upToNow.last.map { Self.rounded($0.weightValue(in: unit)) },
            weightUnit: unit, goalWeight: preferences.goalWeight.map(Self.rounded),
            trend: WeightTrend.over(upToNow, unit: unit, now: now), recentEntries: recent)
    }

    /// One decimal, as the app shows weights.
    static func rounded(_ weight: Double) -> Double { (weight * 10).rounded() / 10 }
}
