import Foundation
import SwiftUI
import WidgetKit

/// W8Trackr's home-screen widget: current weight, goal and trend; the large size adds the
/// last seven days.
public struct WeightWidget: Widget {
    public static let kind = "WeightWidget"

    let provider: WeightWidgetProvider

    public init() { provider = WeightWidgetProvider() }

    public init(provider: WeightWidgetProvider) { self.provider = provider }

    public var body: some WidgetConfiguration {
        StaticConfiguration(kind: Self.kind, provider: provider) { entry in
            WeightWidgetEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Weight Tracker")
        .description("See your current weight and progress at a glance.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

/// What the widget shows, per family (what the views below draw): small shows the weight and
/// trend, medium adds the goal, large adds the sparkline. Before the first weigh-in, the
/// empty state invites one.
public struct WeightSummary: Encodable, Sendable, Hashable {
    public static let emptyMessage = "Add your first weigh-in"

    public var family: WidgetFamily
    public var emptyState: String?
    public var systemImage: String
    public var widgetURL: String
    public var weight: Double?
    public var unit: WeightUnit?
    public var trend: WeightTrend?
    public var goal: Double?
    /// How far from the goal, in the unit (positive: still to lose).
    public var toGo: Double?
    public var points: [WeightWidgetEntry.ChartDataPoint]?

    public init(entry: WeightWidgetEntry) {
        family = entry.family
        guard let weight = entry.currentWeight else {
            emptyState = Self.emptyMessage
            systemImage = "scalemass"
            widgetURL = "w8trackr://addWeight"
            return
        }
        systemImage = entry.trend.systemImage
        widgetURL = "w8trackr://summary"
        self.weight = weight
        unit = entry.weightUnit
        trend = entry.trend
        if entry.family != .systemSmall, let goal = entry.goalWeight {
            self.goal = goal
            toGo = WeightWidgetProvider.rounded(weight - goal)
        }
        if entry.family == .systemLarge { points = entry.recentEntries }
    }
}
