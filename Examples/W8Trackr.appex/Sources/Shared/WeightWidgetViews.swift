import Foundation
import SwiftUI
import WidgetKit

/// seeds/003 "Pattern 1": the entry view routes to the family's view.
public struct WeightWidgetEntryView: View {
    @Environment(\.widgetFamily) var family
    let entry: WeightWidgetEntry

    public init(entry: WeightWidgetEntry) { self.entry = entry }

    public var body: some View {
        switch family {
        case .systemSmall:
            SmallWidgetView(entry: entry)
        case .systemMedium:
            MediumWidgetView(entry: entry)
        case .systemLarge:
            LargeWidgetView(entry: entry)
        default:
            EmptyView()
        }
    }
}

/// seeds/003 "Pattern 3": the weight and its trend; a tap opens the summary.
struct SmallWidgetView: View {
    let entry: WeightWidgetEntry

    var body: some View {
        let summary = WeightSummary(entry: entry)
        if let weight = summary.weight, let unit = summary.unit {
            VStack(alignment: .leading, spacing: 4) {
                Label("Weight", systemImage: "scalemass")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Spacer(minLength: 0)
                WeightText(weight: weight, unit: unit)
                TrendText(trend: summary.trend ?? .unknown)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .leading)
            .widgetURL(URL(string: summary.widgetURL))
        } else {
            EmptyStateView()
        }
    }
}

/// The weight beside the goal and how far there is to go.
struct MediumWidgetView: View {
    let entry: WeightWidgetEntry

    var body: some View {
        let summary = WeightSummary(entry: entry)
        if let weight = summary.weight, let unit = summary.unit {
            HStack(alignment: .top, spacing: 16) {
                VStack(alignment: .leading, spacing: 4) {
                    Label("Weight", systemImage: "scalemass")
                        .font(.caption)
                        .foregroundStyle(.secondary)
                    WeightText(weight: weight, unit: unit)
                    TrendText(trend: summary.trend ?? .unknown)
                }
                Spacer()
                GoalView(summary: summary)
            }
            .widgetURL(URL(string: summary.widgetURL))
        } else {
            EmptyStateView()
        }
    }
}

/// The medium layout over the last seven days, drawn as bars (seeds/003 draws them with
/// Swift Charts, which this SDK does not have).
struct LargeWidgetView: View {
    let entry: WeightWidgetEntry

    var body: some View {
        let summary = WeightSummary(entry: entry)
        if summary.weight != nil {
            VStack(alignment: .leading, spacing: 12) {
                MediumWidgetView(entry: entry)
                Divider()
                Text("Last 7 days")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Sparkline(points: summary.points ?? [])
            }
        } else {
            EmptyStateView()
        }
    }
}

struct WeightText: View {
    let weight: Double
    let unit: WeightUnit

    var body: some View {
        HStack(alignment: .firstTextBaseline, spacing: 2) {
            Text("\(weight, specifier: "%.1f")")
                .font(.system(size: 34, weight: .bold, design: .rounded))
                .contentTransition(.numericText(value: weight))
            Text(unit.rawValue)
                .font(.headline)
                .foregroundStyle(.secondary)
        }
        .minimumScaleFactor(0.6)
        .lineLimit(1)
    }
}

struct TrendText: View {
    let trend: WeightTrend

    var body: some View {
        Label(label, systemImage: trend.systemImage)
            .font(.caption)
            .fontWeight(.semibold)
            .foregroundStyle(trend == .down ? Color.green : trend == .up ? Color.orange : Color.secondary)
    }

    private var label: String {
        switch trend {
        case .up: "Up this week"
        case .down: "Down this week"
        case .neutral: "Steady"
        case .unknown: "No trend yet"
        }
    }
}

struct GoalView: View {
    let summary: WeightSummary

    var body: some View {
        if let goal = summary.goal, let toGo = summary.toGo, let unit = summary.unit {
            VStack(alignment: .trailing, spacing: 4) {
                Text("Goal \(goal, specifier: "%.1f") \(unit.rawValue)")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Text(toGo > 0 ? "\(toGo, specifier: "%.1f") to go" : "Goal reached")
                    .font(.headline)
                    .widgetAccentable()
            }
        } else {
            Text("Set a goal in W8Trackr")
                .font(.caption)
                .foregroundStyle(.secondary)
        }
    }
}

/// One bar per weigh-in, scaled between the week's lowest and highest.
struct Sparkline: View {
    let points: [WeightWidgetEntry.ChartDataPoint]

    var body: some View {
        let weights = points.map(\.weight)
        let low = (weights.min() ?? 0) - 0.5
        let high = (weights.max() ?? 1) + 0.5
        HStack(alignment: .bottom, spacing: 6) {
            ForEach(points, id: \.date) { point in
                VStack(spacing: 4) {
                    Spacer(minLength: 0)
                    Capsule()
                        .fill(.blue.opacity(0.8))
                        .frame(height: max(4, 90 * (point.weight - low) / (high - low)))
                    Text("\(point.weight, specifier: "%.1f")")
                        .font(.caption2)
                        .foregroundStyle(.secondary)
                }
            }
        }
        .frame(height: 120)
    }
}

/// seeds/003 "Pattern 4": before the first weigh-in, an invitation to add one.
struct EmptyStateView: View {
    var body: some View {
        VStack(spacing: 8) {
            Image(systemName: "scalemass")
                .font(.largeTitle)
                .foregroundStyle(.secondary)
            Text("Add your first weigh-in")
                .font(.caption)
                .foregroundStyle(.secondary)
        }
        .widgetURL(URL(string: "w8trackr://addWeight"))
    }
}
