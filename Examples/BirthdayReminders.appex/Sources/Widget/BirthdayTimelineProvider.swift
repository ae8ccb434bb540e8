import BirthdayRemindersShared
import Foundation
import WidgetKit

/// seeds/000 "Pattern 2", with the SwiftData query replaced by the app group file.
struct BirthdayTimelineProvider: TimelineProvider {
    typealias Entry = BirthdayTimelineEntry

    func placeholder(in context: Context) -> BirthdayTimelineEntry {
        BirthdayTimelineEntry.placeholder
    }

    func getSnapshot(in context: Context, completion: @escaping (BirthdayTimelineEntry) -> Void) {
        let entry = fetchEntry()
        // The gallery shows sample data until the user has birthdays of their own.
        completion(context.isPreview && entry.upcomingBirthdays.isEmpty ? placeholder(in: context) : entry)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<BirthdayTimelineEntry>) -> Void) {
        let entry = fetchEntry()
        // Refresh at midnight (birthdays change day boundaries)
        let midnight = BirthdayCalculator.nextMidnight(after: entry.date)
        let timeline = Timeline(entries: [entry], policy: .after(midnight))
        completion(timeline)
    }

    private func fetchEntry() -> BirthdayTimelineEntry {
        let now = Date()
        let birthdays = (try? BirthdayStore.shared()?.load()) ?? []
        let upcoming = BirthdayCalculator.upcoming(birthdays, from: now, limit: 8)
        return BirthdayTimelineEntry(date: now, upcomingBirthdays: upcoming)
    }
}
