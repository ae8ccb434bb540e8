import Foundation

/// One birthday as a widget shows it: plain values, never the stored model (seeds/000,
/// "Storing Person model objects in TimelineEntry").
public struct UpcomingBirthday: Codable, Sendable, Hashable {
    public var name: String
    public var date: Date
    public var daysUntil: Int
    public var turning: Int?

    public init(name: String, date: Date, daysUntil: Int, turning: Int?) {
        self.name = name
        self.date = date
        self.daysUntil = daysUntil
        self.turning = turning
    }
}

/// Sorts birthdays by how soon they come, as the app's list and the widgets do.
public enum BirthdayCalculator {
    public static func upcoming(
        _ birthdays: [Birthday], from now: Date, limit: Int, calendar: Calendar = .current
    ) -> [UpcomingBirthday] {
        let today = calendar.startOfDay(for: now)
        let upcoming = birthdays.map { birthday in
            let date = birthday.nextOccurrence(onOrAfter: today, calendar: calendar)
            let days = calendar.dateComponents([.day], from: today, to: date).day ?? 0
            return UpcomingBirthday(
                name: birthday.name, date: date, daysUntil: days,
                turning: birthday.age(at: date, calendar: calendar))
        }
        return Array(upcoming.sorted { ($0.daysUntil, $0.name) < ($1.daysUntil, $1.name) }.prefix(limit))
    }

    /// The next local midnight after `now`: when every "in N days" changes.
    public static func nextMidnight(after now: Date, calendar: Calendar = .current) -> Date {
        let today = calendar.startOfDay(for: now)
        return calendar.date(byAdding: .day, value: 1, to: today) ?? today.addingTimeInterval(86_400)
    }
}
