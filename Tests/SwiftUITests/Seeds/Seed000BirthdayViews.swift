// seeds/000 (Birthday Reminders), "Pattern 1", "Pattern 3" and "Code Examples", verbatim.
import SwiftUI
import WidgetKit

struct BirthdayRemindersWidgetBundle: WidgetBundle {
    var body: some Widget {
        BirthdayHomeWidget()
        BirthdayLockScreenWidget()
    }
}

struct BirthdayHomeWidget: Widget {
    let kind: String = "BirthdayHomeWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: BirthdayTimelineProvider()) { entry in
            HomeWidgetEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
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
            LockScreenWidgetEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Next Birthday")
        .description("See the next upcoming birthday.")
        .supportedFamilies([.accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

struct HomeWidgetEntryView: View {
    var entry: BirthdayTimelineEntry
    @Environment(\.widgetFamily) var widgetFamily

    var body: some View {
        Group {
            switch widgetFamily {
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
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct BirthdayTimelineEntry: TimelineEntry {
    let date: Date
    let upcomingBirthdays: [WidgetBirthday]

    static var placeholder: BirthdayTimelineEntry {
        BirthdayTimelineEntry(
            date: .now,
            upcomingBirthdays: [
                WidgetBirthday(name: "John Doe", daysUntil: 0, month: 2, day: 15, year: 1990),
                WidgetBirthday(name: "Jane Smith", daysUntil: 3, month: 2, day: 18, year: nil),
                WidgetBirthday(name: "Bob Wilson", daysUntil: 7, month: 2, day: 22, year: 1985),
            ]
        )
    }
}

struct WidgetBirthday: Identifiable {
    let id = UUID()
    let name: String
    let daysUntil: Int
    let month: Int
    let day: Int
    let year: Int?

    var daysUntilText: String {
        switch daysUntil {
        case 0: return "Today"
        case 1: return "Tomorrow"
        default: return "in \(daysUntil) days"
        }
    }
}

struct SmallWidgetView: View {
    let entry: BirthdayTimelineEntry

    var body: some View {
        if let birthday = entry.upcomingBirthdays.first {
            VStack(alignment: .leading, spacing: 4) {
                Text(birthday.daysUntilText)
                    .font(.caption2)
                    .fontWeight(.semibold)
                    .foregroundStyle(birthday.daysUntil == 0 ? .accent : .secondary)

                Text(birthday.name)
                    .font(.headline)
                    .lineLimit(2)

                Text(BirthdayCalculator.formattedBirthday(
                    month: birthday.month,
                    day: birthday.day,
                    year: birthday.year
                ))
                .font(.caption)
                .foregroundStyle(.secondary)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        } else {
            Text("No upcoming birthdays")
                .font(.caption)
                .foregroundStyle(.secondary)
        }
    }
}

struct CircularWidgetView: View {
    let entry: BirthdayTimelineEntry

    var body: some View {
        if let birthday = entry.upcomingBirthdays.first {
            Gauge(value: Double(max(0, 30 - birthday.daysUntil)), in: 0...30) {
                Text("\(birthday.daysUntil)")
            } currentValueLabel: {
                Text("\(birthday.daysUntil)")
                    .font(.system(.title2, design: .rounded))
            }
            .gaugeStyle(.accessoryCircularCapacity)
        } else {
            ZStack {
                AccessoryWidgetBackground()
                Image(systemName: "gift")
            }
        }
    }
}

struct InlineWidgetView: View {
    let entry: BirthdayTimelineEntry

    var body: some View {
        if let birthday = entry.upcomingBirthdays.first {
            if birthday.daysUntil == 0 {
                Text("\(Image(systemName: "gift.fill")) \(birthday.name)'s birthday!")
            } else {
                Text("\(Image(systemName: "gift")) \(birthday.name) \(birthday.daysUntilText)")
            }
        } else {
            Text("No upcoming birthdays")
        }
    }
}
