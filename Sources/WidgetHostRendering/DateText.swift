import Foundation
import WidgetHostProtocol

/// Date-relative text as the host computes it at the instant it displays an entry — the
/// same arithmetic as `LiveScript`, which keeps it counting in a browser. English, like
/// the rest of the page; `time` and `date` in the renderer's time zone.
enum DateText {
    static func format(_ run: ArchiveTextRun.Content, at now: Date, timeZone: TimeZone) -> String {
        switch run {
        case .string(let text): return text
        case .symbol(let name): return name
        case .date(let date, let style):
            switch style {
            case .time: return time(date, timeZone)
            case .date: return day(date, timeZone)
            case .relative: return relative(date.timeIntervalSince(now))
            case .offset: return offset(date.timeIntervalSince(now))
            case .timer: return clock(abs(date.timeIntervalSince(now)), showsHours: true)
            }
        case .timer(let start, let end, let countsDown, let showsHours):
            return clock(timerSeconds(start: start, end: end, countsDown: countsDown, at: now), showsHours: showsHours)
        }
    }

    /// Seconds a `Text(timerInterval:)` shows: remaining (counting down) or elapsed, within the interval.
    static func timerSeconds(start: Date, end: Date, countsDown: Bool, at now: Date) -> Double {
        let total = max(0, end.timeIntervalSince(start))
        let elapsed = min(total, max(0, now.timeIntervalSince(start)))
        return countsDown ? total - elapsed : elapsed
    }

    /// How far a timer progress view is, 0…1 (full at the start when counting down).
    static func timerFraction(start: Date, end: Date, countsDown: Bool, at now: Date) -> Double {
        let total = end.timeIntervalSince(start)
        guard total > 0 else { return countsDown ? 0 : 1 }
        let elapsed = min(total, max(0, now.timeIntervalSince(start))) / total
        return countsDown ? 1 - elapsed : elapsed
    }

    /// "2:05", "1:02:03" (hours shown when there are some, or minutes past 59 without them).
    static func clock(_ seconds: Double, showsHours: Bool) -> String {
        let whole = Int(seconds.rounded(.down))
        let s = whole % 60
        let m = (whole / 60) % 60
        let h = whole / 3600
        if showsHours && h > 0 { return "\(h):\(pad(m)):\(pad(s))" }
        return "\(showsHours ? m : whole / 60):\(pad(s))"
    }

    static let units: [(seconds: Int, singular: String, plural: String)] = [
        (31_536_000, "year", "years"), (2_592_000, "month", "months"), (604_800, "week", "weeks"),
        (86_400, "day", "days"), (3600, "hour", "hours"), (60, "minute", "minutes"), (1, "second", "seconds"),
    ]

    /// "2 hours, 23 minutes": the two largest units of the distance to the date.
    static func relative(_ interval: Double) -> String {
        let parts = components(Int(abs(interval).rounded(.down)))
        if parts.isEmpty { return "0 seconds" }
        return parts.prefix(2).map(\.text).joined(separator: ", ")
    }

    /// "+2 hours", "-3 months": the largest unit, signed (future positive).
    static func offset(_ interval: Double) -> String {
        let parts = components(Int(abs(interval).rounded(.down)))
        let sign = interval < 0 ? "-" : "+"
        return sign + (parts.first?.text ?? "0 seconds")
    }

    private static func components(_ total: Int) -> [(value: Int, text: String)] {
        var rest = total
        var parts: [(value: Int, text: String)] = []
        for unit in units {
            let value = rest / unit.seconds
            rest -= value * unit.seconds
            if value > 0 { parts.append((value, "\(value) \(value == 1 ? unit.singular : unit.plural)")) }
        }
        return parts
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// "8:05 AM".
    static func time(_ date: Date, _ timeZone: TimeZone) -> String {
        let parts = calendar(timeZone).dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(pad(parts.minute ?? 0)) \(hour < 12 ? "AM" : "PM")"
    }

    /// "February 15, 2026".
    static func day(_ date: Date, _ timeZone: TimeZone) -> String {
        let parts = calendar(timeZone).dateComponents([.year, .month, .day], from: date)
        return "\(monthNames[max(0, min(11, (parts.month ?? 1) - 1))]) \(parts.day ?? 1), \(parts.year ?? 1970)"
    }

    private static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
