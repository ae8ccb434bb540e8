import Foundation

/// What the LucidPal app shares with its widget: one JSON file in the App Group, written by
/// two writers (habits and notes), each owning its fields.
public struct WidgetSnapshot: Codable, Sendable, Hashable {
    /// The last write by either writer; the widget marks data older than `staleAfter` stale.
    public var writtenAt: Date
    public var habitsToday: Int
    public var habitsTotal: Int
    public var topStreakName: String?
    public var topStreakDays: Int
    public var pinnedNote: String?

    public init(
        writtenAt: Date = Date(timeIntervalSince1970: 0), habitsToday: Int = 0, habitsTotal: Int = 0,
        topStreakName: String? = nil, topStreakDays: Int = 0, pinnedNote: String? = nil
    ) {
        self.writtenAt = writtenAt
        self.habitsToday = habitsToday
        self.habitsTotal = habitsTotal
        self.topStreakName = topStreakName
        self.topStreakDays = topStreakDays
        self.pinnedNote = pinnedNote
    }
}

/// An event of the user's calendar, as the app copies it into the App Group for the widget.
public struct CalendarEvent: Codable, Sendable, Hashable {
    public var title: String
    public var start: Date
    public var end: Date

    public init(title: String, start: Date, end: Date) {
        self.title = title
        self.start = start
        self.end = end
    }
}
