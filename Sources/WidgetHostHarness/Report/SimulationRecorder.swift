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
    /// The pending reload a widget's last deferral was about, and when that deferral began.
    private var openDeferral: [String: (requestedAt: Date?, since: Date, reason: DeferralReason)] = [:]

    init(scenario: Scenario, keepLog: Bool) {
        self.scenario = scenario
        self.keepLog = keepLog
    }

    mutating func record(_ notice: HostNotice) {
        if keepLog { events.append(.notice(notice)) }
        guard let id = notice.widgetId else { return }
        switch notice.type {
        case .widgetAdded:
            reports[id] = WidgetReport(
                id: id, kind: notice.kind ?? "", family: .systemSmall, app: "", extension: notice.extension ?? "",
                source: "")
        case .reloadStarted:
            let budgeted = notice.budgeted ?? false
            update(id) { report in
                if budgeted { report.budgetedReloads += 1 } else { report.exemptReloads += 1 }
                report.reloads.append(ReloadTick(at: notice.at, budgeted: budgeted))
                if let requestedAt = notice.requestedAt { report.addStale(notice.at.timeIntervalSince(requestedAt)) }
            }
            closeDeferral(id, at: notice.at)
        case .reloadCoalesced:
            update(id) { $0.coalesced += 1 }
        case .reloadDeferred:
            guard let reason = notice.reason else { return }
            if let open = openDeferral[id], open.requestedAt == notice.requestedAt { return }
            closeDeferral(id, at: notice.at)
            openDeferral[id] = (notice.requestedAt, notice.at, reason)
            update(id) { report in
                report.deferred += 1
                report.deferredBy[reason.rawValue, default: 0] += 1
                if reason == .budgetExhausted, report.exhaustedAt == nil { report.exhaustedAt = notice.at }
            }
        case .reloadFinished:
            update(id) { report in
                switch notice.result {
                case .timedOut?: report.timeouts += 1
                case .memoryLimitExceeded?: report.memoryKills += 1
                case .crashed?, .protocolError?: report.crashes += 1
                case .invalidTimeline?: report.invalidTimelines += 1
                case .success?, nil: break
                }
            }
        default: break
        }
    }

    private mutating func closeDeferral(_ id: String, at time: Date) {
        guard let open = openDeferral.removeValue(forKey: id) else { return }
        update(id) { $0.deferrals.append(DeferralSpan(from: open.since, until: time, reason: open.reason)) }
    }

    private mutating func update(_ id: String, _ change: (inout WidgetReport) -> Void) {
        guard var report = reports[id] else { return }
        change(&report)
        reports[id] = report
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
        return SimulationResult(scenario: summary, widgets: widgets, events: events, wallTime: wallTime)
    }
}

extension WidgetReport {
    mutating func addStale(_ seconds: TimeInterval) {
        guard seconds > 0 else { return }
        staleSeconds += seconds
        longestStaleSeconds = max(longestStaleSeconds, seconds)
    }
}
