import BirthdayRemindersShared
import Foundation
import WidgetKit

struct BirthdayTimelineEntry: TimelineEntry {
    let date: Date
    let upcomingBirthdays: [UpcomingBirthday]
    /// A SwiftUI view reads `@Environment(\.widgetFamily)`; content here has no
    /// environment, so the entry carries the family it was made for.
    var family: WidgetFamily = .systemSmall

    static let placeholder = BirthdayTimelineEntry(
        date: Date(),
        upcomingBirthdays: [
            UpcomingBirthday(name: "Ada Lovelace", date: Date(), daysUntil: 0, turning: nil),
            UpcomingBirthday(name: "Grace Hopper", date: Date(), daysUntil: 3, turning: nil),
        ])
}
