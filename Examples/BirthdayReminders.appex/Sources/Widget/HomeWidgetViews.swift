import BirthdayRemindersShared
import SwiftUI
import WidgetKit

/// seeds/000 "Pattern 3": one entry view that picks the family's view.
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

/// seeds/000 "Small Home Screen Widget View": the next birthday.
struct SmallWidgetView: View {
    let entry: BirthdayTimelineEntry

    var body: some View {
        if let birthday = entry.upcomingBirthdays.first {
            VStack(alignment: .leading, spacing: 4) {
                Text(birthday.daysUntilText)
                    .font(.caption2)
                    .fontWeight(.semibold)
                    .foregroundStyle(birthday.daysUntil == 0 ? Color.accentColor : Color.secondary)

                Text(birthday.name)
                    .font(.headline)
                    .lineLimit(2)

                Text(BirthdayFormat.day(birthday.date, turning: birthday.turning))
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
            .widgetURL(URL(string: "birthdays://next"))
        } else {
            EmptyBirthdaysView()
        }
    }
}

/// The next three or four birthdays, one row each.
struct MediumWidgetView: View {
    let entry: BirthdayTimelineEntry

    var body: some View {
        if entry.upcomingBirthdays.isEmpty {
            EmptyBirthdaysView()
        } else {
            VStack(alignment: .leading, spacing: 6) {
                Label("Upcoming Birthdays", systemImage: "gift.fill")
                    .font(.caption)
                    .fontWeight(.semibold)
                    .foregroundStyle(.pink)
                ForEach(entry.upcomingBirthdays.prefix(4), id: \.name) { birthday in
                    BirthdayRow(birthday: birthday)
                }
                Spacer(minLength: 0)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        }
    }
}

/// The next six to eight birthdays.
struct LargeWidgetView: View {
    let entry: BirthdayTimelineEntry

    var body: some View {
        if entry.upcomingBirthdays.isEmpty {
            EmptyBirthdaysView()
        } else {
            VStack(alignment: .leading, spacing: 8) {
                Label("Upcoming Birthdays", systemImage: "gift.fill")
                    .font(.headline)
                    .foregroundStyle(.pink)
                Divider()
                ForEach(entry.upcomingBirthdays.prefix(8), id: \.name) { birthday in
                    BirthdayRow(birthday: birthday)
                }
                Spacer(minLength: 0)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        }
    }
}

struct BirthdayRow: View {
    let birthday: UpcomingBirthday

    var body: some View {
        HStack(spacing: 8) {
            Image(systemName: birthday.daysUntil == 0 ? "birthday.cake.fill" : "gift")
                .foregroundStyle(birthday.daysUntil == 0 ? .pink : .secondary)
            Text(birthday.name)
                .font(.subheadline)
                .lineLimit(1)
            Spacer()
            Text(birthday.daysUntilText)
                .font(.caption)
                .foregroundStyle(birthday.daysUntil == 0 ? .pink : .secondary)
        }
    }
}

/// seeds/000 pitfall: "Not handling empty data state".
struct EmptyBirthdaysView: View {
    var body: some View {
        VStack(spacing: 6) {
            Image(systemName: "gift")
                .font(.title2)
                .foregroundStyle(.secondary)
            Text("No birthdays yet. Add some in Birthday Reminders.")
                .font(.caption)
                .multilineTextAlignment(.center)
                .foregroundStyle(.secondary)
        }
        .widgetURL(URL(string: "birthdays://import"))
    }
}

enum BirthdayFormat {
    /// "December 10 · turns 211", as the app's list shows a birthday.
    static func day(_ date: Date, turning: Int?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.month, .day], from: date)
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let day = "\(months[max(0, min(11, (parts.month ?? 1) - 1))]) \(parts.day ?? 1)"
        return turning.map { "\(day) · turns \($0)" } ?? day
    }
}
