import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// Turns the core's notices into the per-widget figures as they happen (the figures never
/// need the whole log, so a thousand widgets cost little memory without `--json`).
struct SimulationRecorder {
    let scenario: Scenario
    let keepLog: Bool
    var source: [WidgetID: String] = [:]
    private var reports: [String: WidgetReport] = [:]
    private var events: [SimulationEvent] = []
    private var activities = ActivityRecorder()
    /// The pending reload a widget's last deferral was about, and when that deferral began.
    private var openDeferral: [String: (requestedAt: Date, since: Date, reason: DeferralReason)] = [:]

    init(scenario: Scenario, keepLog: Bool) {
        self.scenario = scenario
        self.keepLog = keepLog
    }

    mutating func record(_ notice: HostNotice) {
        if keepLog { events.append(.notice(notice)) }
        switch notice {
        case .widgetAdded(let widget, _):
            reports[widget.id] = WidgetReport(
                id: widget.id, kind: widget.kind, family: .systemSmall, app: "", extension: widget.extension, source: "")
        case .reloadStarted(let widget, let at, let charge, let requestedAt):
            update(widget.id) { report in
                if charge.isBudgeted { report.budgetedReloads += 1 } else { report.exemptReloads += 1 }
                report.reloads.append(ReloadTick(at: at, budgeted: charge.isBudgeted))
                report.addStale(at.timeIntervalSince(requestedAt))
            }
            closeDeferral(widget.id, at: at)
        case .reloadCoalesced(let widget, _, _, _, _):
            update(widget.id) { $0.coalesced += 1 }
        case .reloadDeferred(let widget, let at, _, let requestedAt, _, let reason):
            let id = widget.id
            if let open = openDeferral[id], open.requestedAt == requestedAt { return }
            closeDeferral(id, at: at)
            openDeferral[id] = (requestedAt, at, reason)
            update(id) { report in
                report.deferred += 1
                report.deferredBy[reason.rawValue, default: 0] += 1
                if reason == .budgetExhausted, report.exhaustedAt == nil { report.exhaustedAt = at }
            }
        case .reloadFinished(let widget, _, _, let result, _, _, _):
            update(widget.id) { report in
                switch result {
                case .timedOut: report.timeouts += 1
                case .memoryLimitExceeded: report.memoryKills += 1
                case .crashed, .protocolError: report.crashes += 1
                case .invalidTimeline: report.invalidTimelines += 1
                case .success: break
                }
            }
        case .widgetRemoved, .entryChanged, .diagnostic, .snapshotReceived, .extensionKilled, .extensionStopped,
            .intentStarted, .intentFinished, .controlUpdated:
            break
        case .activity(let activity):
            activities.record(activity)
        }
    }

    private mutating func closeDeferral(_ id: String, at time: Date) {
        guard let open = openDeferral.removeValue(forKey: id) else { return }
        update(id) { $0.deferrals.append(DeferralSpan(from: open.since, until: time, reason: open.reason)) }
    }

    /// Changes a report in place: a copy would copy its reloads and deferrals, which grow
    /// with the simulated period (quadratic over 40 days).
    private mutating func update(_ id: String, _ change: (inout WidgetReport) -> Void) {
        // One lookup, no copy (`reports[id] != nil` copies the report to test it).
        guard let index = reports.index(forKey: id) else { return }
        change(&reports.values[index])
    }

    mutating func requested(at time: Date, app: String, kind: String?, foreground: Bool, reply: HostReply?) {
        var outcomes: [WidgetReloadOutcome] = []
        if case .reload(let result)? = reply { outcomes = result.outcomes }
        for outcome in outcomes { update(outcome.id) { $0.requests += 1 } }
        if keepLog {
            events.append(
                .input(
                    InputRecord(
                        type: "reloadRequested", at: time, app: app, kind: kind, foreground: foreground, outcomes: outcomes)))
        }
    }

    /// A `[[activity]]` or `[[widget_push]]` input and what the host answered.
    mutating func activityInput(_ action: ScenarioInput.Action, command: ActivityCommand, reply: HostReply?, at time: Date) {
        if case .push = command, case .activity(.push(let result))? = reply, let id = result.activityId {
            activities.pushSent(activity: id)
        }
        if case .widgetPush = command, case .activity(.widgetPush(let result))? = reply {
            for outcome in result.reload.outcomes { update(outcome.id) { $0.requests += 1 } }
        }
        if keepLog {
            var type = "activityInput"
            switch action {
            case .activityStart: type = "activityStart"
            case .activityUpdate: type = "activityUpdate"
            case .activityPush: type = "activityPush"
            case .activityEnd: type = "activityEnd"
            case .widgetPush: type = "widgetPush"
            case .reload, .view, .tap, .configure, .device: break
            }
            var record = InputRecord(type: type, at: time)
            if case .activity(.push(let result))? = reply {
                record.push = result
            } else if case .activity(.widgetPush(let result))? = reply {
                record.outcomes = result.reload.outcomes
                record.kind = result.kind
            } else if case .activity(.refused(let refusal))? = reply {
                record.refusal = refusal.reason
            }
            events.append(.input(record))
        }
    }

    /// A tap, a configuration edit or a device change, and what the host answered at once (a
    /// tap's outcome comes later, as `intentFinished`).
    mutating func interacted(_ type: String, widget: WidgetID?, reply: HostReply?, at time: Date) {
        guard keepLog else { return }
        var record = InputRecord(type: type, at: time, widgetId: widget?.rawValue)
        switch reply {
        case .configured(let result)?: record.outcomes = [result.reload]
        case .device(let result)?: record.outcomes = result.reloads
        case .refused(let error)?: record.refusal = "\(error)"
        default: break
        }
        events.append(.input(record))
    }

    mutating func viewed(_ id: WidgetID, at time: Date) {
        if keepLog { events.append(.input(InputRecord(type: "viewRecorded", at: time, widgetId: id.rawValue))) }
    }

    /// The reports at the end of the period: B then, and the wait of a reload still pending.
    mutating func result(host: WidgetHost, scenario: Scenario, seed: UInt64, wallTime: TimeInterval) -> SimulationResult {
        let end = scenario.end
        var widgets: [WidgetReport] = []
        for record in host.allRecords.sorted(by: { $0.id < $1.id }) {
            let id = record.info.id
            closeDeferral(id, at: end)
            guard var report = reports[id] else { continue }
            report.family = record.info.family
            report.source = source[record.id] ?? ""
            report.app = record.info.app
            if let status = try? host.status(of: record.id, at: end).get().first {
                report.budget = status.budget.limit
                if let since = status.staleSince {
                    report.addStale(end.timeIntervalSince(since))
                }
            }
            widgets.append(report)
        }
        let summary = ScenarioSummary(
            file: scenario.file, start: scenario.start, end: end, timezone: scenario.timeZoneName, seed: seed,
            widgets: widgets.count)
        var result = SimulationResult(scenario: summary, widgets: widgets, events: events, wallTime: wallTime)
        result.activities = activities.result(host: host, end: end)
        return result
    }
}

extension WidgetReport {
    mutating func addStale(_ seconds: TimeInterval) {
        guard seconds > 0 else { return }
        staleSeconds += seconds
        longestStaleSeconds = max(longestStaleSeconds, seconds)
    }
}
