import Foundation
import WidgetHostProtocol

/// `widgethost timeline ID`: the policy, then every entry with the current one marked.
enum TimelineText {
    static func text(_ result: TimelineResult, now: Date, timeZone: TimeZone = .current) -> String {
        let time = TimeText(now: now, timeZone: timeZone)
        var header = "\(result.id)  policy \(Text.policy(result.policy, time: time))"
        if let received = result.receivedAt { header += ", received \(time(received))" }
        header += ", \(Text.plural(result.entries.count, "entry", "entries"))"
        var lines = [header]
        lines.append("current entry: " + StatusText.currentEntryDetail(result.currentEntry, time: time))
        guard !result.entries.isEmpty else {
            lines.append("No timeline yet: the widget has not finished a reload.")
            return lines.joined(separator: "\n")
        }
        var table = Table(header: ["", "DATE", "RELEVANCE", "CONTENT"])
        for entry in result.entries {
            let isCurrent = result.currentEntry.source == .timeline && result.currentEntry.entry == entry
            var relevance = "-"
            if let score = entry.relevance?.score {
                relevance = String(format: "%g", score)
                if let duration = entry.relevance?.duration { relevance += " for \(Text.duration(seconds: duration))" }
            }
            table.append([isCurrent ? "*" : "", time(entry.date), relevance, EntrySummary.text(entry)])
        }
        lines.append(table.rendered)
        return lines.joined(separator: "\n")
    }
}
