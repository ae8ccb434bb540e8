import Foundation
import WidgetHostProtocol

/// Times in local time: `12:05:00` today, `2026-02-16 00:00:00` on another day.
/// "Today" is the day of `now`, the daemon's clock when it said (it may be virtual).
struct TimeText {
    let now: Date
    private let calendar: Calendar

    init(now: Date, timeZone: TimeZone = .current) {
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    func callAsFunction(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let time = pad(parts.hour) + ":" + pad(parts.minute) + ":" + pad(parts.second)
        if calendar.isDate(date, inSameDayAs: now) { return time }
        return pad(parts.year, 4) + "-" + pad(parts.month) + "-" + pad(parts.day) + " " + time
    }

    private func pad(_ value: Int?, _ width: Int = 2) -> String {
        let digits = String(value ?? 0)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

enum Text {
    /// `45s`, `5m 30s`, `2h 5m`, `3d 4h`.
    static func duration(seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total)s" }
        let days = total / 86_400, hours = total / 3600 % 24, minutes = total / 60 % 60, secs = total % 60
        if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
        if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
        return secs > 0 ? "\(minutes)m \(secs)s" : "\(minutes)m"
    }

    static func milliseconds(_ value: Double) -> String {
        value >= 1000 ? String(format: "%.1f s", value / 1000) : "\(Int(value.rounded())) ms"
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }

    /// Compact JSON with sorted keys, as the wire has it.
    static func json(_ value: JSONValue) -> String {
        (try? String(decoding: WireCoding.encode(value), as: UTF8.self)) ?? "\(value)"
    }

    static func truncated(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    static func plural(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    static func policy(_ policy: TimelinePolicy?, time: TimeText) -> String {
        switch policy {
        case nil: "none yet"
        case .atEnd?: ".atEnd"
        case .never?: ".never"
        case .after(let date)?: ".after(\(time(date)))"
        }
    }
}
