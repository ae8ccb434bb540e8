import Foundation
import SwiftUI
import WidgetKit

/// LucidPal's widget: today's habits, the top streak, the pinned note and the next event.
public struct LucidPalWidget: Widget {
    public static let kind = "LucidPalWidget"

    let provider: LucidPalProvider

    public init() { provider = LucidPalProvider() }

    public init(provider: LucidPalProvider) { self.provider = provider }

    public var body: some WidgetConfiguration {
        StaticConfiguration(kind: Self.kind, provider: provider) { entry in
            LucidPalEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("LucidPal")
        .description("Today's habits, your longest streak, your pinned note and what's next.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryRectangular])
    }
}

/// What the views draw. Small: habits and streak. Medium adds the pinned note and the event.
/// Rectangular (lock screen): one line of habits and the event title.
public struct LucidPalSummary: Encodable, Sendable, Hashable {
    public static let emptyMessage = "Log a habit or pin a note in LucidPal"

    public struct Event: Encodable, Sendable, Hashable {
        public let title: String
        public let start: Date
        public let end: Date
        public let inProgress: Bool
    }

    public var family: WidgetFamily
    public var emptyState: String?
    public var habits: String?
    public var habitsToday: Int?
    public var habitsTotal: Int?
    public var topStreak: String?
    public var pinnedNote: String?
    public var event: Event?
    /// Shown as a marker ("Updated 7 h ago") when the data may be out of date.
    public var stale: Bool?
    public var writtenAt: Date?

    public init(entry: LucidPalEntry) {
        family = entry.family
        let event = entry.event.map {
            Event(title: $0.title, start: $0.start, end: $0.end, inProgress: $0.start <= entry.date)
        }
        guard let snapshot = entry.snapshot else {
            emptyState = Self.emptyMessage
            if entry.family != .systemSmall { self.event = event }
            return
        }
        habits = "\(snapshot.habitsToday)/\(snapshot.habitsTotal)"
        habitsToday = snapshot.habitsToday
        habitsTotal = snapshot.habitsTotal
        if entry.isStale {
            stale = true
            writtenAt = snapshot.writtenAt
        }
        switch entry.family {
        case .accessoryRectangular:
            self.event = event
        case .systemSmall:
            topStreak = snapshot.topStreakName.map { "\($0) · \(snapshot.topStreakDays) days" }
        default:
            topStreak = snapshot.topStreakName.map { "\($0) · \(snapshot.topStreakDays) days" }
            pinnedNote = snapshot.pinnedNote
            self.event = event
        }
    }
}
