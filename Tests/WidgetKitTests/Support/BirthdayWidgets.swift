import Foundation
import WidgetKit

// The Birthday Reminders extension as its authors wrote it (seeds/000), with the SwiftUI
// views replaced by Encodable content. The provider below is verbatim WidgetKit code.

struct BirthdayTimelineEntry: TimelineEntry { let date: Date; let names: [String] }

struct BirthdayTimelineProvider: TimelineProvider {
    typealias Entry = BirthdayTimelineEntry
    func placeholder(in context: Context) -> Entry { Entry(date: Date(), names: ["Ada"]) }
    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
        let midnight = Calendar.current.startOfDay(for: Date()).addingTimeInterval(86_400)
        completion(Timeline(entries: [Entry(date: Date(), names: [])], policy: .after(midnight)))
    }
}

/// Stands in for `LockScreenWidgetEntryView`.
struct NextBirthdayContent: Encodable {
    let name: String?
}

struct BirthdayHomeWidget: Widget {
    let kind: String = "BirthdayHomeWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: BirthdayTimelineProvider()) { entry in
            ["names": entry.names]
        }
        .configurationDisplayName("Upcoming Birthdays")
        .description("See upcoming birthdays at a glance.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

struct BirthdayLockScreenWidget: Widget {
    let kind: String = "BirthdayLockScreenWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: BirthdayTimelineProvider()) { entry in
            NextBirthdayContent(name: entry.names.first)
        }
        .configurationDisplayName("Next Birthday")
        .description("See the next upcoming birthday.")
        .supportedFamilies([.accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

struct BirthdayRemindersWidgetBundle: WidgetBundle {
    var body: some Widget {
        BirthdayHomeWidget()
        BirthdayLockScreenWidget()
    }
}
