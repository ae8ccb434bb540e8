import Foundation
import WidgetHostProtocol

/// One line per `subscribe` notice: `12:00:00  reloadStarted    w1 BirthdayHomeWidget  budgeted`.
enum EventText {
    static func line(_ notice: HostNotice, timeZone: TimeZone = .current) -> String {
        let time = TimeText(now: Date(), timeZone: timeZone)
        var subject: [String] = []
        if let id = notice.widgetId { subject.append(id) }
        if let kind = notice.kind { subject.append(kind) }
        if subject.isEmpty, let name = notice.extension { subject.append(name) }
        let type = notice.type.rawValue
        let padded = type + String(repeating: " ", count: max(1, 17 - type.count))
        var line = "\(time(notice.at))  \(padded)\(subject.joined(separator: " "))"
        let details = details(notice, time: time)
        if !details.isEmpty { line += "  " + details }
        return line
    }

    private static func details(_ notice: HostNotice, time: TimeText) -> String {
        var parts: [String] = []
        switch notice.type {
        case .reloadStarted:
            if notice.budgeted == false {
                parts.append(notice.exemption.map { "exempt (\($0))" } ?? "exempt")
            } else if notice.budgeted == true {
                parts.append("budgeted")
            }
            if let requested = notice.requestedAt, requested < notice.at {
                parts.append("waited \(Text.duration(seconds: notice.at.timeIntervalSince(requested)))")
            }
        case .reloadCoalesced, .reloadDeferred:
            if let until = notice.until { parts.append("until \(time(until))") }
            if let reason = notice.reason { parts.append("(\(reason.rawValue))") }
        case .reloadFinished:
            if let result = notice.result { parts.append(result.rawValue) }
            if let duration = notice.durationMs { parts.append(Text.milliseconds(duration)) }
            if let footprint = notice.footprintBytes { parts.append(Text.mebibytes(footprint)) }
        case .entryChanged, .snapshotReceived:
            if let entry = notice.entry { parts.append(Text.truncated(EntrySummary.text(entry), to: 80)) }
        case .diagnostic:
            if let diagnostic = notice.diagnostic {
                parts.append("\(diagnostic.severity.rawValue) \(diagnostic.code): \(diagnostic.message)")
            }
        case .widgetAdded, .widgetRemoved, .extensionKilled, .extensionStopped:
            if notice.widgetId != nil, let name = notice.extension { parts.append(name) }
        }
        if let detail = notice.detail, !detail.isEmpty { parts.append("— \(detail)") }
        return parts.joined(separator: " ")
    }
}
