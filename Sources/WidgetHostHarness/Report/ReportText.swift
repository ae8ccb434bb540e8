import Foundation
import WidgetHostProtocol

extension SimulationResult {
    /// The per-widget table a person reads at the end of `widgethost simulate`.
    public func text(timeZone: TimeZone) -> String {
        let clock = ReportClock(start: scenario.start, end: scenario.end, timeZone: timeZone)
        let header = [
            "WIDGET", "KIND", "SOURCE", "B", "REQUESTS", "BUDGETED", "EXEMPT", "COALESCED", "DEFERRED", "EXHAUSTED AT",
            "STALE", "LONGEST", "TIMEOUTS", "MEM KILLS", "CRASHES",
        ]
        var rows = [header]
        for widget in widgets {
            rows.append([
                widget.id, widget.kind, widget.source, String(widget.budget), String(widget.requests),
                String(widget.budgetedReloads), String(widget.exemptReloads), String(widget.coalesced),
                String(widget.deferred), widget.exhaustedAt.map(clock.format) ?? "—",
                ReportClock.duration(widget.staleSeconds), ReportClock.duration(widget.longestStaleSeconds),
                String(widget.timeouts), String(widget.memoryKills), String(widget.crashes),
            ])
        }
        let numeric = Set([3, 4, 5, 6, 7, 8, 12, 13, 14])
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var lines = [
            "\(scenario.file): \(clock.format(scenario.start)) → \(clock.format(scenario.end)) (\(scenario.timezone)), "
                + "\(widgets.count) widget\(widgets.count == 1 ? "" : "s"), seed \(scenario.seed)",
            "",
        ]
        for (index, row) in rows.enumerated() {
            let cells = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return numeric.contains(column) && index != 0 ? pad + cell : cell + pad
            }
            lines.append(cells.joined(separator: "  ").trimmingWhitespace())
        }
        lines += activityLines(clock: clock)
        let exhausted = widgets.filter { $0.exhaustedAt != nil }.count
        lines.append("")
        lines.append(
            "\(exhausted) of \(widgets.count) widget\(widgets.count == 1 ? "" : "s") ran out of budget; "
                + "simulated \(ReportClock.duration(scenario.end.timeIntervalSince(scenario.start))) in "
                + String(format: "%.2f s", wallTime))
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SimulationResult {
    /// The Live Activities' table: pushes, when the budget ran out, how long content was behind and stale.
    func activityLines(clock: ReportClock) -> [String] {
        guard !activities.isEmpty else { return [] }
        let header = [
            "ACTIVITY", "APP", "TYPE", "STATE", "BUDGET/H", "PUSHES", "DELIVERED", "P5", "LOCAL", "THROTTLED",
            "EXHAUSTED AT", "BEHIND", "STALE",
        ]
        var rows = [header]
        for activity in activities {
            rows.append([
                activity.id, activity.app, activity.attributesType, activity.state.rawValue,
                "\(activity.pushBudget)\(activity.frequentUpdates ? " (frequent)" : "")", String(activity.pushesSent),
                String(activity.priority10Delivered), String(activity.priority5Delivered), String(activity.localUpdates),
                String(activity.throttled), activity.exhaustedAt.map(clock.format) ?? "—",
                ReportClock.duration(activity.behindSeconds), ReportClock.duration(activity.staleSeconds),
            ])
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var lines = [""]
        for row in rows {
            let cells = row.enumerated().map { column, cell in cell + String(repeating: " ", count: widths[column] - cell.count) }
            lines.append(cells.joined(separator: "  ").trimmingWhitespace())
        }
        let exhausted = activities.filter { $0.exhaustedAt != nil }.count
        lines.append("")
        lines.append(
            "\(exhausted) of \(activities.count) Live Activit\(activities.count == 1 ? "y" : "ies") ran out of push budget "
                + "(dropped pushes are not delivered later; BEHIND is how long the content lagged the provider's)")
        return lines
    }
}

/// Times as the report shows them: "11:50" within a one-day period, "Feb 16 00:10" beyond.
struct ReportClock {
    let start: Date
    let end: Date
    let timeZone: TimeZone
    /// Made once: a report formats a time for every widget.
    private let calendar: Calendar

    init(start: Date, end: Date, timeZone: TimeZone) {
        self.start = start
        self.end = end
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    func format(_ date: Date) -> String {
        let parts = calendar.dateComponents([.month, .day, .hour, .minute, .second], from: date)
        var text = "\(Self.twoDigits(parts.hour ?? 0)):\(Self.twoDigits(parts.minute ?? 0))"
        if let second = parts.second, second != 0 { text += ":\(Self.twoDigits(second))" }
        let sameDay = calendar.isDate(date, inSameDayAs: start) && end.timeIntervalSince(start) <= 86_400
        guard !sameDay else { return text }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(months[(parts.month ?? 1) - 1]) \(parts.day ?? 1) \(text)"
    }

    /// `0`, `45s`, `12m`, `3h05m`, `1d02h`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total == 0 { return "0" }
        if total < 60 { return "\(total)s" }
        if total < 3600 { return "\(total / 60)m" }
        if total < 86_400 { return "\(total / 3600)h\(twoDigits(total / 60 % 60))m" }
        return "\(total / 86_400)d\(twoDigits(total / 3600 % 24))h"
    }

    /// `String(format: "%02d", n)` without Foundation's formatter (a report calls it thousands of times).
    static func twoDigits(_ number: Int) -> String {
        (0..<10).contains(number) ? "0\(number)" : "\(number)"
    }
}

extension String {
    /// `trimmingCharacters(in: .whitespaces)`, looking at the ends only (Foundation's copies the
    /// whole line; the table trims one per widget).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        let whitespace = CharacterSet.whitespaces
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, whitespace.contains(scalars[start]) { start = scalars.index(after: start) }
        while end > start, whitespace.contains(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }
}
