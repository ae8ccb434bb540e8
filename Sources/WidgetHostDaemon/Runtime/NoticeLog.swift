import Logging
import WidgetHostProtocol

/// Every notice also goes to the log, with the journal fields WIDGET_ID, WIDGET_KIND,
/// EXTENSION and OUTCOME for `journalctl WIDGET_KIND=…`.
extension HostRuntime {
    func log(_ notice: HostNotice) {
        var metadata: Logger.Metadata = ["EXTENSION": "\(notice.extension)"]
        if let id = notice.widgetId { metadata["WIDGET_ID"] = "\(id)" }
        if let kind = notice.widget?.kind { metadata["WIDGET_KIND"] = "\(kind)" }
        if let result = notice.result { metadata["OUTCOME"] = "\(result.rawValue)" }
        let level: Logger.Level
        let message: String
        switch notice {
        case .reloadStarted(_, _, let charge, _):
            level = .info
            switch charge {
            case .budgeted: message = "reload started (budgeted)"
            case .exempt(let exemption): message = "reload started (exempt: \(exemption.rawValue))"
            case .prepaid: message = "reload started (exempt: prepaid)"
            }
        case .reloadDeferred(_, _, _, _, let until, let reason):
            level = .info
            message = "reload deferred until \(until.map(RFC3339.format) ?? "later") (\(reason.rawValue))"
        case .reloadCoalesced: level = .debug; message = "reload request coalesced"
        case .reloadFinished(_, _, _, let result, _, _, let detail):
            level = result == .success ? .info : .warning
            message = "reload finished: \(result.rawValue)\(detail.map { " — \($0)" } ?? "")"
        case .entryChanged(_, _, _, let source): level = .debug; message = "entry changed (\(source.rawValue))"
        case .diagnostic(_, let diagnostic):
            level = diagnostic.severity == .error ? .warning : .notice
            message = "\(diagnostic.code): \(diagnostic.message)"
        case .extensionKilled(_, _, _, _, _, _, let detail): level = .warning; message = "extension killed: \(detail)"
        case .extensionStopped(_, _, let detail): level = .debug; message = "extension stopped: \(detail)"
        case .widgetAdded: level = .notice; message = "widget added"
        case .widgetRemoved: level = .notice; message = "widget removed"
        case .snapshotReceived: level = .debug; message = "snapshot received"
        }
        logger.log(level: level, "\(message)", metadata: metadata)
    }
}
