import Foundation
import Logging
import Testing
import WidgetHostProtocol

@testable import WidgetHostDaemon

/// What each notice says in the daemon's log, and the journal fields it carries.
@Suite("Notices in the log")
struct NoticeLogTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400)  // 2026-02-15T08:00:00Z
    static let widget = NoticeWidget(id: "w3", kind: "CrasherWidget", extension: "com.fixture.crasher.widget")
    static let widgetFields: Logger.Metadata = [
        "WIDGET_ID": "w3", "WIDGET_KIND": "CrasherWidget", "EXTENSION": "com.fixture.crasher.widget",
    ]

    static let lines: [(HostNotice, Logger.Level, String)] = [
        (.widgetAdded(widget, at: t0), .notice, "widget added"),
        (.widgetRemoved(widget, at: t0), .notice, "widget removed"),
        (.reloadStarted(widget, at: t0, charge: .budgeted, requestedAt: t0), .info, "reload started (budgeted)"),
        (
            .reloadStarted(widget, at: t0, charge: .exempt(.foreground), requestedAt: t0), .info,
            "reload started (exempt: foreground)"
        ),
        (.reloadStarted(widget, at: t0, charge: .prepaid, requestedAt: t0), .info, "reload started (exempt: prepaid)"),
        (
            .reloadDeferred(widget, at: t0, budgeted: true, requestedAt: t0, until: t0 + 300, reason: .minInterval),
            .info, "reload deferred until 2026-02-15T08:05:00Z (minInterval)"
        ),
        (
            .reloadDeferred(widget, at: t0, budgeted: true, requestedAt: t0, until: nil, reason: .reloadInProgress),
            .info, "reload deferred until later (reloadInProgress)"
        ),
        (
            .reloadCoalesced(widget, at: t0, budgeted: true, until: nil, reason: .reloadInProgress), .debug,
            "reload request coalesced"
        ),
        (
            .reloadFinished(
                widget, at: t0, budgeted: true, result: .success, durationMs: 12, footprintBytes: nil, detail: nil),
            .info, "reload finished: success"
        ),
        (
            .reloadFinished(
                widget, at: t0, budgeted: true, result: .crashed, durationMs: 12, footprintBytes: nil,
                detail: "the extension crashed: exited with status 3"),
            .warning, "reload finished: crashed — the extension crashed: exited with status 3"
        ),
        (.entryChanged(widget, at: t0, entry: nil, source: .placeholder), .debug, "entry changed (placeholder)"),
        (
            .diagnostic(widget, Diagnostic(at: t0, code: "crashed", severity: .error, message: "it crashed")),
            .warning, "crashed: it crashed"
        ),
        (
            .diagnostic(widget, Diagnostic(at: t0, code: "policyTooSoon", severity: .info, message: "too soon")),
            .notice, "policyTooSoon: too soon"
        ),
        (
            .snapshotReceived(widget, at: t0, entry: TimelineEntryPayload(date: t0, content: [:])), .debug,
            "snapshot received"
        ),
        (
            .extensionStopped(extension: "com.fixture.crasher.widget", at: t0, detail: "idle for 30s"), .debug,
            "extension stopped: idle for 30s"
        ),
    ]

    @Test("Each notice has its level and sentence, with the widget's journal fields", arguments: lines)
    func line(notice: HostNotice, level: Logger.Level, message: String) {
        let line = NoticeLog.line(for: notice)
        #expect(line.level == level)
        #expect(NoticeLog.level(for: notice) == level)
        #expect(line.message == message)
        var fields = notice.widget == nil ? ["EXTENSION": "com.fixture.crasher.widget"] : Self.widgetFields
        if let result = notice.result { fields["OUTCOME"] = "\(result.rawValue)" }
        #expect(line.metadata == fields)
    }

    @Test("A killed process is logged with the widget it ran for and why, as docs/operations.md shows")
    func killed() {
        let line = NoticeLog.line(
            for: .extensionKilled(
                extension: "com.fixture.crasher.widget", widgetId: "w3", at: Self.t0, result: .crashed, durationMs: 5,
                footprintBytes: nil, detail: "the extension crashed: exited with status 3"))
        #expect(line.level == .warning)
        #expect(line.message == "extension killed: the extension crashed: exited with status 3")
        #expect(line.metadata == ["EXTENSION": "com.fixture.crasher.widget", "OUTCOME": "crashed", "WIDGET_ID": "w3"])
    }

    /// `level(for:)` decides whether a line is built at all: it must be the line's own level
    /// for every kind of notice, the intent, control and activity ones included.
    @Test("The level a notice is logged at is known before its line is built")
    func levels() {
        let e = "com.fixture.crasher.widget"
        var notices = Self.lines.map(\.0)
        notices.append(
            .extensionKilled(
                extension: e, widgetId: "w3", at: Self.t0, result: .crashed, durationMs: 5, footprintBytes: nil, detail: "x"))
        notices.append(.intentStarted(extension: e, widgetId: "w3", control: nil, at: Self.t0, intent: "I", button: nil, isOn: nil))
        for outcome in IntentOutcome.allCases {
            notices.append(
                .intentFinished(
                    extension: e, widgetId: nil, control: "C", at: Self.t0, intent: "I", outcome: outcome, durationMs: 3,
                    detail: nil))
        }
        notices.append(.controlUpdated(extension: e, control: "C", at: Self.t0, value: nil, detail: nil))
        notices.append(.controlUpdated(extension: e, control: "C", at: Self.t0, value: nil, detail: "failed"))
        for event in ActivityNotice.Event.allCases {
            notices.append(
                .activity(
                    ActivityNotice(
                        event: event, at: Self.t0, activityId: "a1", app: "app", attributesType: nil, source: .app,
                        state: nil, detail: "d")))
        }
        for notice in notices {
            #expect(NoticeLog.level(for: notice) == NoticeLog.line(for: notice).level, "\(notice)")
        }
    }
}
