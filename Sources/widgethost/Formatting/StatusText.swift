import Foundation
import WidgetHostProtocol

/// `widgethost status`: a table of every instance, or the whole story of one.
enum StatusText {
    static func table(_ result: StatusResult, timeZone: TimeZone = .current) -> String {
        let time = TimeText(now: result.now, timeZone: timeZone)
        var table = Table(header: [
            "ID", "KIND", "FAMILY", "BUDGET", "NEXT RELOAD", "LAST OUTCOME", "CURRENT ENTRY", "STALE",
        ])
        for status in result.widgets {
            table.append([
                status.widget.id,
                status.widget.kind,
                status.widget.family.rawValue,
                "\(status.budget.used)/\(status.budget.limit)" + (status.budget.enforced ? "" : " off"),
                nextReloadSummary(status, time: time),
                lastOutcomeSummary(status.lastOutcome),
                Text.truncated(entrySummary(status.currentEntry), to: 48),
                status.staleSince == nil && status.staleSeconds <= 0 ? "no" : Text.duration(seconds: status.staleSeconds),
            ])
        }
        return table.rendered
    }

    static func nextReloadSummary(_ status: WidgetStatus, time: TimeText) -> String {
        var parts: [String] = []
        if status.reloadRunning { parts.append("running;") }
        if let at = status.nextReload.at {
            parts.append(time(at))
            parts.append(status.nextReload.cause)
            if let gate = status.nextReload.deferredBy { parts.append("(\(gate.rawValue))") }
        } else {
            parts.append(status.nextReload.cause == "none" ? "none" : status.nextReload.cause)
        }
        return parts.joined(separator: " ")
    }

    static func lastOutcomeSummary(_ outcome: LastOutcome?) -> String {
        guard let outcome else { return "-" }
        return "\(outcome.result.rawValue), \(Text.milliseconds(outcome.durationMs))"
    }

    static func entrySummary(_ entry: CurrentEntry) -> String {
        guard let payload = entry.entry else { return entry.source.rawValue }
        return "\(entry.source.rawValue) \(EntrySummary.text(payload))"
    }

    /// Every question about one widget, one labelled line each.
    static func detail(_ status: WidgetStatus, now: Date, timeZone: TimeZone = .current) -> String {
        let time = TimeText(now: now, timeZone: timeZone)
        let widget = status.widget
        var lines: [(String, String)] = []
        lines.append(("app", "\(widget.app), extension \(widget.extension)"))
        lines.append(("added", time(status.addedAt)))

        let budget = status.budget
        var budgetText = "\(budget.used) of \(budget.limit) budgeted reloads used in the last 24 h"
        if !budget.enforced { budgetText += " (not enforced: budget.enforce = false)" }
        lines.append(("budget", budgetText))
        let engagement = String(format: "%.2f", budget.engagement)
        var engagementText: String
        if budget.pinned {
            engagementText = "B = \(budget.limit) is pinned by the configuration"
        } else if budget.learning {
            engagementText = "\(engagement) — learning period after the widget was added, so B is the maximum"
        } else {
            engagementText = "\(engagement) from \(Text.plural(budget.views, "view")) in the last 24 h"
        }
        if budget.pinned || budget.learning { engagementText += "; \(Text.plural(budget.views, "view")) in 24 h" }
        lines.append(("engagement", engagementText))
        lines.append(("ledger", budget.ledger.isEmpty ? "no budgeted reloads in the last 24 h" : ledgerText(budget.ledger, time: time)))
        lines.append(("next free slot", budget.nextFreeSlot <= now ? "now" : time(budget.nextFreeSlot)))

        lines.append(("next reload", nextReloadDetail(status, time: time)))
        if let outcome = status.lastOutcome {
            var text = "\(outcome.result.rawValue) at \(time(outcome.startedAt)), took \(Text.milliseconds(outcome.durationMs))"
            if let peak = outcome.peakFootprintBytes { text += ", peak footprint \(Text.mebibytes(peak))" }
            if let detail = outcome.detail, !detail.isEmpty { text += " — \(detail)" }
            lines.append(("last outcome", text))
        } else {
            lines.append(("last outcome", "no reload has finished yet"))
        }

        lines.append(("current entry", currentEntryDetail(status.currentEntry, time: time)))
        lines.append(("policy", Text.policy(status.policy, time: time)))
        if let since = status.staleSince {
            lines.append(("stale", "for \(Text.duration(seconds: status.staleSeconds)), since \(time(since)) (a due or requested reload is waiting)"))
        } else {
            lines.append(("stale", "no"))
        }
        if status.backoff.consecutiveFailures > 0 {
            var text = "\(Text.plural(status.backoff.consecutiveFailures, "consecutive failure"))"
            if let until = status.backoff.until { text += ", backing off until \(time(until))" }
            lines.append(("backoff", text))
        } else {
            lines.append(("backoff", "none"))
        }
        if status.diagnostics.isEmpty {
            lines.append(("diagnostics", "none"))
        } else {
            for (index, diagnostic) in status.diagnostics.enumerated() {
                lines.append((
                    index == 0 ? "diagnostics" : "",
                    "\(time(diagnostic.at)) \(diagnostic.severity.rawValue) \(diagnostic.code): \(diagnostic.message)"
                ))
            }
        }

        var table = Table(indent: "  ")
        for (label, value) in lines { table.append([label, value]) }
        return "\(widget.id)  \(widget.kind) (\(widget.family.rawValue))\n" + table.rendered
    }

    static func nextReloadDetail(_ status: WidgetStatus, time: TimeText) -> String {
        let next = status.nextReload
        var text: String
        if let at = next.at {
            text = "\(time(at)), \(causeText(next.cause))"
            text += next.budgeted ? ", budgeted" : ", exempt"
            if let gate = next.deferredBy { text += ", waiting on \(gate.rawValue)" }
        } else if next.cause == "none" {
            text = "none scheduled (.never policy: only explicit reloads)"
        } else {
            text = "not scheduled (\(causeText(next.cause)))"
            if let gate = next.deferredBy { text += ", waiting on \(gate.rawValue)" }
        }
        if status.reloadRunning { text = "a reload is running now; then " + text }
        return text
    }

    static func causeText(_ cause: String) -> String {
        switch cause {
        case "policy": "due by the timeline's reload policy"
        case "requested": "requested by the app"
        case "retry": "retry after a failure"
        case "host": "the host's own reload (added, reboot or time change)"
        default: cause
        }
    }

    static func currentEntryDetail(_ entry: CurrentEntry, time: TimeText) -> String {
        let source: String = switch entry.source {
        case .timeline: "from the current timeline"
        case .previousTimeline: "from the previous timeline (the new one has not started yet)"
        case .placeholder: "the placeholder"
        case .none: "nothing to show yet"
        }
        guard let payload = entry.entry else { return source }
        var text = "\(source), dated \(time(payload.date))"
        if let relevance = payload.relevance { text += ", relevance \(relevance.score)" }
        return text + ": " + EntrySummary.text(payload)
    }

    /// The ledger's start times, oldest first, wrapped under the value column.
    private static func ledgerText(_ ledger: [Date], time: TimeText) -> String {
        var lines: [String] = []
        var line = ""
        for start in ledger.map({ time($0) }) {
            if !line.isEmpty, line.count + 1 + start.count > 72 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + start
        }
        lines.append(line)
        // The detail table indents values by 2 + the longest label ("next free slot") + 2.
        return lines.joined(separator: "\n" + String(repeating: " ", count: 2 + "next free slot".count + 2))
    }
}
