import BirthdayRemindersShared
import Foundation
import WidgetKit

/// seeds/000 "TimelineEntry with Plain Value Types": the birthdays to show, as plain values.
/// `Codable`, so the entry also travels as the view's `content` (what `widgethost status` shows).
struct BirthdayTimelineEntry: TimelineEntry, Codable {
    let date: Date
    let upcomingBirthdays: [UpcomingBirthday]

    static var placeholder: BirthdayTimelineEntry {
        BirthdayTimelineEntry(
            date: .now,
            upcomingBirthdays: [
                UpcomingBirthday(name: "Ada Lovelace", date: .now, daysUntil: 0, turning: nil),
                UpcomingBirthday(name: "Grace Hopper", date: .now, daysUntil: 3, turning: nil),
            ])
    }
}

extension UpcomingBirthday {
    /// seeds/000's `WidgetBirthday.daysUntilText`.
    var daysUntilText: String {
        switch daysUntil {
        case 0: return "Today"
        case 1: return "Tomorrow"
        default: return "in \(daysUntil) days"
        }
    }
}
