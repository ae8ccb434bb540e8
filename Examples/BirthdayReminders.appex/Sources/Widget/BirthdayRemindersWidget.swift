import WidgetKit

// seeds/000 "Pattern 1": one extension, two widgets. The content closures stand in for
// HomeWidgetEntryView and LockScreenWidgetEntryView.

@main
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
            HomeWidgetContent(entry: entry)
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
            LockScreenWidgetContent(entry: entry)
        }
        .configurationDisplayName("Next Birthday")
        .description("See the next upcoming birthday.")
        .supportedFamilies([.accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}
