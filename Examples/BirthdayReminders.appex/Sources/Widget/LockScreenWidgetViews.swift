import BirthdayRemindersShared
import SwiftUI
import WidgetKit

/// The lock screen widget's entry view: the family's view.
struct LockScreenWidgetEntryView: View {
    var entry: BirthdayTimelineEntry
    @Environment(\.widgetFamily) var widgetFamily

    var body: some View {
        switch widgetFamily {
        case .accessoryCircular:
            CircularWidgetView(entry: entry)
        case .accessoryRectangular:
            RectangularWidgetView(entry: entry)
        default:
            InlineWidgetView(entry: entry)
        }
    }
}

/// seeds/000 "Lock Screen Accessory Circular Widget": days to go in a capacity ring.
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

/// seeds/000 "Open Questions" 2: the name is privacy-sensitive on the lock screen.
struct RectangularWidgetView: View {
    let entry: BirthdayTimelineEntry

    var body: some View {
        if let birthday = entry.upcomingBirthdays.first {
            VStack(alignment: .leading, spacing: 2) {
                Label(birthday.daysUntilText, systemImage: "gift.fill")
                    .font(.caption)
                    .widgetAccentable()
                Text(birthday.name)
                    .font(.headline)
                    .lineLimit(1)
                    .privacySensitive()
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        } else {
            Label("No birthdays", systemImage: "gift")
        }
    }
}

/// seeds/000 "Lock Screen Accessory Inline Widget".
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
