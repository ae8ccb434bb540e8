import Foundation

/// Times of day as scenario files and `widgethost clock run-until` write them: `"HH:MM"` or
/// `"HH:MM:SS"`, two digits each, from `"00:00"` to `"24:00"`. `"24:00"` is the end of the day
/// (86,400 s after midnight, as ISO 8601 allows), so a window can run `until = "24:00"`; no
/// other time past 23:59:59 exists.
public enum TimeOfDay {
    /// Seconds after midnight, or nil when `text` is not a time of day.
    public static func parse(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard part.count == 2, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        let (hours, minutes, seconds) = (numbers[0], numbers[1], parts.count == 3 ? numbers[2] : 0)
        guard minutes < 60, seconds < 60 else { return nil }
        let total = hours * 3600 + minutes * 60 + seconds
        guard total <= 86_400 else { return nil }
        return TimeInterval(total)
    }

    /// `"HH:MM"` (or `"HH:MM:SS"` when the seconds are not zero).
    public static func format(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        let text = String(format: "%02d:%02d", total / 3600, total / 60 % 60)
        return total % 60 == 0 ? text : text + String(format: ":%02d", total % 60)
    }
}
