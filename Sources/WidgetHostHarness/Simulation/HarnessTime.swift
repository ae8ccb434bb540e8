import Foundation
import WidgetHostConfiguration

/// Durations and times of day as scenarios and `widgethost clock` write them.
public enum HarnessTime {
    /// `"2h"`, `"30m"`, `"1h30m"` → seconds.
    public static func duration(_ text: String) -> TimeInterval? { DurationText.parse(text) }

    /// `"18:00"` or `"18:00:30"` → seconds after midnight; `"24:00"` is the end of the day.
    public static func timeOfDay(_ text: String) -> TimeInterval? { TimeOfDay.parse(text) }

    /// The first instant after `date` whose local time of day (in `zone`) is `offset`.
    public static func next(timeOfDay offset: TimeInterval, after date: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: date)
        let candidate = today + offset
        return candidate > date ? candidate : (calendar.date(byAdding: .day, value: 1, to: today) ?? today + 86_400) + offset
    }
}
