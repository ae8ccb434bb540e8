import Foundation
import WidgetKit

public struct LucidPalEntry: TimelineEntry, Hashable {
    public let date: Date
    public let family: WidgetFamily
    /// nil before the app's first write: the empty state.
    public let snapshot: WidgetSnapshot?
    /// The event in progress, else the next one still to start.
    public let event: CalendarEvent?
    /// The snapshot is old enough that its counts may be wrong (see `LucidPalProvider.isStale`).
    public let isStale: Bool
}

/// Reads the snapshot fresh on every reload (no caching: the file is the single source of
/// truth) and reloads when the next calendar event ends, so its row disappears on time, or
/// after 15 minutes, whichever is sooner.
public struct LucidPalProvider: TimelineProvider {
    public static let fallbackRefresh: TimeInterval = 15 * 60
    /// A snapshot older than this is marked stale.
    public static let staleAfter: TimeInterval = 6 * 3600

    let container: @Sendable () -> LucidPalContainer?
    let now: @Sendable () -> Date

    public init(
        container: @escaping @Sendable () -> LucidPalContainer? = { LucidPalContainer.shared },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.container = container
        self.now = now
    }

    public func placeholder(in context: Context) -> LucidPalEntry {
        let now = now()
        let sample = WidgetSnapshot(
            writtenAt: now, habitsToday: 3, habitsTotal: 5, topStreakName: "Meditate", topStreakDays: 12,
            pinnedNote: "Call the dentist")
        return LucidPalEntry(
            date: now, family: context.family, snapshot: sample,
            event: CalendarEvent(title: "Stand-up", start: now, end: now.addingTimeInterval(900)), isStale: false)
    }

    public func getSnapshot(in context: Context, completion: @escaping @Sendable (LucidPalEntry) -> Void) {
        completion(entry(family: context.family, now: now()))
    }

    public func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<LucidPalEntry>) -> Void) {
        let now = now()
        let events = container()?.readEvents() ?? []
        completion(Timeline(entries: [entry(family: context.family, now: now, events: events)], policy: .after(Self.nextReload(after: now, events: events))))
    }

    func entry(family: WidgetFamily, now: Date, events: [CalendarEvent]? = nil) -> LucidPalEntry {
        let container = container()
        let snapshot = container?.readSnapshot()
        let events = events ?? container?.readEvents() ?? []
        return LucidPalEntry(
            date: now, family: family, snapshot: snapshot, event: Self.currentOrNextEvent(at: now, in: events),
            isStale: snapshot.map { Self.isStale($0, at: now) } ?? false)
    }

    /// The end of the next event to end, if sooner than the 15-minute fallback.
    public static func nextReload(after now: Date, events: [CalendarEvent]) -> Date {
        let fallback = now.addingTimeInterval(fallbackRefresh)
        let nextEnd = events.map(\.end).filter { $0 > now }.min()
        return min(nextEnd ?? fallback, fallback)
    }

    public static func currentOrNextEvent(at now: Date, in events: [CalendarEvent]) -> CalendarEvent? {
        events.filter { $0.end > now }.min { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    /// Older than `staleAfter`, or written on an earlier day (its `habitsToday` counts that day).
    public static func isStale(_ snapshot: WidgetSnapshot, at now: Date, calendar: Calendar = .current) -> Bool {
        now.timeIntervalSince(snapshot.writtenAt) > staleAfter || !calendar.isDate(snapshot.writtenAt, inSameDayAs: now)
    }
}
