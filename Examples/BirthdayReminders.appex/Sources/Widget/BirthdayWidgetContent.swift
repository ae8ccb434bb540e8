import BirthdayRemindersShared
import Foundation
import WidgetKit

/// What the views of seeds/000 show, as values: the host encodes it as the entry's content.
/// Home screen: the next 1 (small), 4 (medium) or 8 (large) birthdays.
struct HomeWidgetContent: Encodable {
    let title: String
    let birthdays: [Line]
    let emptyMessage: String?

    struct Line: Encodable {
        let name: String
        let when: String
        let turning: Int?
    }

    init(entry: BirthdayTimelineEntry) {
        let count = switch entry.family {
        case .systemSmall: 1
        case .systemMedium: 4
        default: 8
        }
        title = "Upcoming Birthdays"
        birthdays = entry.upcomingBirthdays.prefix(count).map {
            Line(name: $0.name, when: BirthdayWording.when($0.daysUntil), turning: $0.turning)
        }
        emptyMessage = entry.upcomingBirthdays.isEmpty ? "No birthdays yet. Add some in Birthday Reminders." : nil
    }
}

/// Lock screen: a countdown (circular), name and days (rectangular), one line (inline).
struct LockScreenWidgetContent: Encodable {
    let text: String
    let name: String?
    let daysUntil: Int?

    init(entry: BirthdayTimelineEntry) {
        let next = entry.upcomingBirthdays.first
        name = next?.name
        daysUntil = next?.daysUntil
        guard let next else {
            text = "No birthdays"
            return
        }
        text = switch entry.family {
        case .accessoryCircular: next.daysUntil == 0 ? "🎂" : "\(next.daysUntil)d"
        case .accessoryRectangular: "\(next.name)\n\(BirthdayWording.when(next.daysUntil))"
        default: next.daysUntil == 0 ? "\(next.name) today" : "\(next.name) \(BirthdayWording.when(next.daysUntil))"
        }
    }
}

enum BirthdayWording {
    static func when(_ daysUntil: Int) -> String {
        switch daysUntil {
        case 0: "today"
        case 1: "tomorrow"
        default: "in \(daysUntil) days"
        }
    }
}
