import Foundation
import WidgetHostProtocol

/// Live Activities and pushes for the terminal. Everything an app sent is passed through
/// `TerminalText.safe`.
enum ActivityText {
    static func line(_ activity: ActivityInfo, now: Date, time: TimeText) -> String {
        var parts = [
            activity.id, activity.app, activity.attributesType, activity.state.rawValue,
            "started \(Text.duration(seconds: now.timeIntervalSince(activity.startedAt))) ago",
        ]
        switch activity.state {
        case .active:
            if let stale = activity.content.staleDate { parts.append("stale at \(time(stale))") }
        case .stale:
            if let stale = activity.content.staleDate {
                parts.append("stale for \(Text.duration(seconds: now.timeIntervalSince(stale)))")
            }
        case .ended:
            if let dismissAt = activity.dismissAt { parts.append("on the Lock Screen until \(time(dismissAt))") }
        case .dismissed: break
        }
        let budget = activity.pushBudget
        parts.append("pushes \(budget.used)/\(budget.limit)\(budget.frequentUpdates ? " (frequent updates)" : "")")
        return TerminalText.safe(parts.joined(separator: "  "))
    }

    static func story(_ detail: ActivityDetailResult) -> String {
        let activity = detail.activity
        let time = TimeText(now: detail.now)
        var lines = [line(activity, now: detail.now, time: time)]
        lines.append(TerminalText.safe("  attributes  \(Text.json(activity.attributes))"))
        lines.append(TerminalText.safe("  content     \(Text.json(activity.content.state))"))
        lines.append("  size        \(activity.payloadBytes) bytes of attributes and content state")
        if let token = activity.pushToken { lines.append("  push token  \(token)") }
        if let alert = activity.lastAlert { lines.append(TerminalText.safe("  last alert  \(alert.title) — \(alert.body)")) }
        lines.append("")
        for item in detail.history {
            let event = item.event + String(repeating: " ", count: max(1, 10 - item.event.count))
            let source = item.source.rawValue + String(repeating: " ", count: max(1, 7 - item.source.rawValue.count))
            lines.append(TerminalText.safe("  \(time(item.at))  \(event)\(source)\(item.detail)"))
        }
        return lines.joined(separator: "\n")
    }

    static func push(_ result: ActivityPushResult, priority: Int, time: TimeText) -> String {
        var text = "\(result.activityId ?? "-")  \(result.event) \(result.outcome.rawValue)"
        if let until = result.until { text += " until \(time(until))" }
        if let reason = result.reason { text += " (\(reason.rawValue))" }
        if let budget = result.budget {
            let what = result.event == "start" ? "push-to-start pushes" : "priority-10 pushes"
            text += result.budgeted
                ? " — \(budget.used) of \(budget.limit) \(what) in the last hour"
                : " — priority \(priority), not budgeted (\(budget.used) of \(budget.limit) priority-10 pushes used)"
        }
        return text
    }
}
