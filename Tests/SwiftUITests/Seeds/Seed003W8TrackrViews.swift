// seeds/003 (W8Trackr), "Pattern 1", "Pattern 3", "Pattern 4" and "Complete Widget Entry
// Point", verbatim (the bundle's @main dropped; SwiftData and Charts imports left out: the
// provider's SwiftData query and the large widget's Swift Charts sparkline are not here).
import WidgetKit
import SwiftUI

struct W8TrackrWidgetBundle: WidgetBundle {
    var body: some Widget {
        WeightWidget()
    }
}

struct WeightWidget: Widget {
    let kind: String = "WeightWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: WeightWidgetProvider()) { entry in
            WeightWidgetEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Weight Tracker")
        .description("See your current weight and progress at a glance.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

struct WeightWidgetEntryView: View {
    @Environment(\.widgetFamily) var family
    let entry: WeightWidgetEntry

    var body: some View {
        switch family {
        case .systemSmall:
            W8SmallWidgetView(entry: entry)
        case .systemMedium:
            W8MediumWidgetView(entry: entry)
        case .systemLarge:
            W8LargeWidgetView(entry: entry)
        default:
            EmptyView()
        }
    }
}

struct W8SmallWidgetView: View {
    let entry: WeightWidgetEntry

    var body: some View {
        VStack {
            // Widget content
        }
        .widgetURL(URL(string: "w8trackr://summary"))
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

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

struct WeightWidgetEntry: TimelineEntry {
    let date: Date
    let currentWeight: Int?  // Whole numbers per CONTEXT.md
    let weightUnit: String   // "lb" or "kg"
    let goalWeight: Int?
    let trend: WeightTrend
    let recentEntries: [ChartDataPoint]  // For large widget sparkline

    enum WeightTrend {
        case up, down, neutral, unknown

        var systemImage: String {
            switch self {
            case .up: return "arrow.up"
            case .down: return "arrow.down"
            case .neutral: return "minus"
            case .unknown: return "minus"
            }
        }
    }

    struct ChartDataPoint: Identifiable {
        let id = UUID()
        let date: Date
        let weight: Double
    }
}
