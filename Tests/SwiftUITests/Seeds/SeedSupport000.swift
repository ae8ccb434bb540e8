// What seeds/000's view code refers to but the seed does not show (written for the tests):
// the asset symbols Xcode generates, the medium, large, lock-screen and rectangular views
// it lists in its project structure, its calculator, and a provider without SwiftData.
import SwiftUI
import WidgetKit

/// Xcode 15 generates `.accent` from the asset catalog's AccentColor (GeneratedAssetSymbols.swift).
extension ShapeStyle where Self == Color {
    static var accent: Color { Color("AccentColor") }
}

enum BirthdayCalculator {
    static func formattedBirthday(month: Int, day: Int, year: Int?) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let name = (1...12).contains(month) ? months[month - 1] : "?"
        return year.map { "\(name) \(day), \($0)" } ?? "\(name) \(day)"
    }
}

struct MediumWidgetView: View {
    let entry: BirthdayTimelineEntry
    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            ForEach(entry.upcomingBirthdays.prefix(4)) { birthday in
                HStack {
                    Text(birthday.name).font(.subheadline)
                    Spacer()
                    Text(birthday.daysUntilText).font(.caption).foregroundStyle(.secondary)
                }
            }
        }
    }
}

struct LargeWidgetView: View {
    let entry: BirthdayTimelineEntry
    var body: some View {
        VStack(alignment: .leading) {
            Text("Upcoming Birthdays").font(.headline)
            Divider()
            ForEach(entry.upcomingBirthdays.prefix(8)) { birthday in
                Label(birthday.name, systemImage: birthday.daysUntil == 0 ? "gift.fill" : "gift")
            }
            Spacer()
        }
    }
}

struct RectangularWidgetView: View {
    let entry: BirthdayTimelineEntry
    var body: some View {
        if let birthday = entry.upcomingBirthdays.first {
            VStack(alignment: .leading) {
                Text(birthday.name).font(.headline).privacySensitive()
                Text(birthday.daysUntilText)
            }
        }
    }
}

struct LockScreenWidgetEntryView: View {
    var entry: BirthdayTimelineEntry
    @Environment(\.widgetFamily) var widgetFamily

    var body: some View {
        switch widgetFamily {
        case .accessoryCircular: CircularWidgetView(entry: entry)
        case .accessoryRectangular: RectangularWidgetView(entry: entry)
        default: InlineWidgetView(entry: entry)
        }
    }
}

struct BirthdayTimelineProvider: TimelineProvider {
    typealias Entry = BirthdayTimelineEntry

    func placeholder(in context: Context) -> BirthdayTimelineEntry { .placeholder }

    func getSnapshot(in context: Context, completion: @escaping (BirthdayTimelineEntry) -> Void) {
        completion(.placeholder)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<BirthdayTimelineEntry>) -> Void) {
        completion(Timeline(entries: [.placeholder], policy: .never))
    }
}
