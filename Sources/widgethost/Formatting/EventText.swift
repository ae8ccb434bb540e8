import Foundation
import WidgetHostProtocol

/// One line per `subscribe` notice: `12:00:00  reloadStarted    w1 BirthdayHomeWidget  budgeted`.
enum EventText {
    static func line(_ notice: HostNotice, timeZone: TimeZone = .current) -> String {
        let time = TimeText(now: Date(), timeZone: timeZone)
        // A killed process is named by the widget whose request it ran, its extension follows.
        var subject = notice.widget.map { "\($0.id) \($0.kind)" } ?? notice.widgetId ?? notice.extension
        if case .activity(let activity) = notice {
            subject = TerminalText.safe("\(activity.activityId ?? "-") \(activity.attributesType ?? activity.app)")
        }
        let type = notice.type.rawValue
        let padded = type + String(repeating: " ", count: max(1, 17 - type.count))
        var line = "\(time(notice.at))  \(padded)\(subject)"
        let details = details(notice, time: time)
        if !details.isEmpty { line += "  " + details }
        return line
    }

    private static func details(_ notice: HostNotice, time: TimeText) -> String {
        var parts: [String] = []
        switch notice {
        case .reloadStarted(_, let at, let charge, let requestedAt):
            switch charge {
            case .budgeted: parts.append("budgeted")
            case .exempt(let exemption): parts.append("exempt (\(exemption.rawValue))")
            case .prepaid: parts.append("exempt (prepaid)")
            }
            if requestedAt < at { parts.append("waited \(Text.duration(seconds: at.timeIntervalSince(requestedAt)))") }
        case .reloadCoalesced(_, _, _, let until, let reason), .reloadDeferred(_, _, _, _, let until, let reason):
            if let until { parts.append("until \(time(until))") }
            parts.append("(\(reason.rawValue))")
        case .reloadFinished(_, _, _, let result, let durationMs, let footprintBytes, let detail):
            parts.append(result.rawValue)
            parts.append(Text.milliseconds(durationMs))
            if let footprintBytes { parts.append(Text.mebibytes(footprintBytes)) }
            parts.append(dash(detail))
        case .entryChanged(_, _, let entry, let source):
            if let entry { parts.append(Text.truncated(EntrySummary.text(entry), to: 80)) }
            parts.append(dash(source.rawValue))
        case .snapshotReceived(_, _, let entry):
            parts.append(Text.truncated(EntrySummary.text(entry), to: 80))
        case .diagnostic(_, let diagnostic):
            parts.append("\(diagnostic.severity.rawValue) \(diagnostic.code): \(diagnostic.message)")
        case .widgetAdded(let widget, _), .widgetRemoved(let widget, _):
            parts.append(widget.extension)
        case .extensionKilled(let ext, _, _, _, _, _, let detail):
            parts.append(ext)
            parts.append(dash(detail))
        case .extensionStopped(_, _, let detail):
            parts.append(dash(detail))
        case .intentStarted(_, _, let control, _, let intent, let button, let isOn):
            if let control { parts.append("control \(control)") }
            parts.append(intent)
            if let button { parts.append("(\(button))") }
            if let isOn { parts.append(isOn ? "→ on" : "→ off") }
        case .intentFinished(_, _, let control, _, let intent, let outcome, let durationMs, let detail):
            if let control { parts.append("control \(control)") }
            parts.append(intent)
            parts.append(outcome.rawValue)
            parts.append(Text.milliseconds(durationMs))
            parts.append(dash(detail))
        case .controlUpdated(_, let control, _, let value, let detail):
            parts.append(control)
            if let isOn = value?.isOn { parts.append(isOn ? "on" : "off") }
            if let title = value?.title { parts.append(title) }
            parts.append(dash(detail))
        case .activity(let activity):
            parts.append(activity.source.rawValue)
            if let reason = activity.reason { parts.append(reason) }
            if let until = activity.until { parts.append("until \(time(until))") }
            parts.append(dash(TerminalText.safe(activity.detail)))
        }
        return parts.filter { !$0.isEmpty }.joined(separator: " ")
    }

    private static func dash(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return "— \(detail)"
    }
}
