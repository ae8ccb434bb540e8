import Foundation
import WidgetHostDaemon

/// Durations and times of day as scenarios and `widgethost clock` write them.
public enum HarnessTime {
    /// `"2h"`, `"30m"`, `"1h30m"` → seconds.
    public static func duration(_ text: String) -> TimeInterval? { DurationText.parse(text) }

    /// `"18:00"` or `"18:00:30"` → seconds after midnight.
    public static func timeOfDay(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        let (hours, minutes, seconds) = (parts[0]!, parts[1]!, parts.count == 3 ? parts[2]! : 0)
        guard (0...23).contains(hours), (0...59).contains(minutes), (0...59).contains(seconds) else { return nil }
        return TimeInterval(hours * 3600 + minutes * 60 + seconds)
    }

    /// The first instant after `date` whose local time of day (in `zone`) is `offset`.
    public static func next(timeOfDay offset: TimeInterval, after date: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: date)
        let candidate = today + offset
        return candidate > date ? candidate : (calendar.date(byAdding: .day, value: 1, to: today) ?? today + 86_400) + offset
    }
}
