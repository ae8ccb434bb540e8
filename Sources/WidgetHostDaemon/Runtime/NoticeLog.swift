import Logging
import WidgetHostProtocol

/// Every notice also goes to the log, with the journal fields WIDGET_ID, WIDGET_KIND,
/// EXTENSION and OUTCOME for `journalctl WIDGET_KIND=…`.
extension HostRuntime {
    func log(_ notice: HostNotice) {
        // Most notices are below the configured level (`warning` by default): nothing is built
        // for them (the fields and the sentence were ~8,000 instructions a notice, callgrind).
        guard logger.logLevel <= NoticeLog.level(for: notice) else { return }
        let line = NoticeLog.line(for: notice)
        logger.log(level: line.level, "\(line.message)", metadata: line.metadata)
    }
}

enum NoticeLog {
    /// The level `line(for:)` logs the notice at, without building its line.
    static func level(for notice: HostNotice) -> Logger.Level {
        switch notice {
        case .reloadStarted, .reloadDeferred: .info
        case .widgetAdded, .widgetRemoved: .notice
        case .reloadCoalesced, .entryChanged, .extensionStopped, .snapshotReceived, .intentStarted: .debug
        case .reloadFinished(_, _, _, let result, _, _, _): result == .success ? .info : .warning
        case .diagnostic(_, let diagnostic): diagnostic.severity == .error ? .warning : .notice
        case .extensionKilled: .warning
        case .intentFinished(_, _, _, _, _, let outcome, _, _): outcome == .succeeded ? .info : .warning
        case .controlUpdated(_, _, _, _, let detail): detail == nil ? .debug : .warning
        case .activity(let activity): activity.event == .refused || activity.event == .throttled ? .notice : .info
        }
    }

    static func line(for notice: HostNotice) -> (level: Logger.Level, message: String, metadata: Logger.Metadata) {
        var metadata: Logger.Metadata = ["EXTENSION": "\(notice.extension)"]
        if let id = notice.widgetId { metadata["WIDGET_ID"] = "\(id)" }
        if let kind = notice.widget?.kind { metadata["WIDGET_KIND"] = "\(kind)" }
        if let result = notice.result { metadata["OUTCOME"] = "\(result.rawValue)" }
        switch notice {
        case .reloadStarted(_, _, let charge, _):
            switch charge {
            case .budgeted: return (.info, "reload started (budgeted)", metadata)
            case .exempt(let exemption): return (.info, "reload started (exempt: \(exemption.rawValue))", metadata)
            case .prepaid: return (.info, "reload started (exempt: prepaid)", metadata)
            }
        case .reloadDeferred(_, _, _, _, let until, let reason):
            return (.info, "reload deferred until \(until.map(RFC3339.format) ?? "later") (\(reason.rawValue))", metadata)
        case .reloadCoalesced:
            return (.debug, "reload request coalesced", metadata)
        case .reloadFinished(_, _, _, let result, _, _, let detail):
            return (
                result == .success ? .info : .warning, "reload finished: \(result.rawValue)\(detail.map { " — \($0)" } ?? "")",
                metadata
            )
        case .entryChanged(_, _, _, let source):
            return (.debug, "entry changed (\(source.rawValue))", metadata)
        case .diagnostic(_, let diagnostic):
            return (diagnostic.severity == .error ? .warning : .notice, "\(diagnostic.code): \(diagnostic.message)", metadata)
        case .extensionKilled(_, _, _, _, _, _, let detail):
            return (.warning, "extension killed: \(detail)", metadata)
        case .extensionStopped(_, _, let detail):
            return (.debug, "extension stopped: \(detail)", metadata)
        case .widgetAdded:
            return (.notice, "widget added", metadata)
        case .widgetRemoved:
            return (.notice, "widget removed", metadata)
        case .snapshotReceived:
            return (.debug, "snapshot received", metadata)
        case .intentStarted(_, _, let control, _, let intent, _, _):
            var metadata = metadata
            if let control { metadata["CONTROL_KIND"] = "\(control)" }
            return (.debug, "intent \(intent) started", metadata)
        case .intentFinished(_, _, let control, _, let intent, let outcome, let durationMs, let detail):
            var metadata = metadata
            if let control { metadata["CONTROL_KIND"] = "\(control)" }
            metadata["OUTCOME"] = "\(outcome.rawValue)"
            return (
                outcome == .succeeded ? .info : .warning,
                "intent \(intent) \(outcome.rawValue) in \(Int(durationMs)) ms\(detail.map { " — \($0)" } ?? "")", metadata
            )
        case .controlUpdated(_, let control, _, _, let detail):
            var metadata = metadata
            metadata["CONTROL_KIND"] = "\(control)"
            return (detail == nil ? .debug : .warning, "control value \(detail.map { "failed — \($0)" } ?? "updated")", metadata)
        case .activity(let activity):
            metadata["APP"] = "\(activity.app)"
            if let id = activity.activityId { metadata["ACTIVITY_ID"] = "\(id)" }
            if let reason = activity.reason { metadata["OUTCOME"] = "\(reason)" }
            let level: Logger.Level = activity.event == .refused || activity.event == .throttled ? .notice : .info
            return (level, "live activity \(activity.event.rawValue): \(activity.detail)", metadata)
        }
    }
}
