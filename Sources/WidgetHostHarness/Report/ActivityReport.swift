import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// What happened to one Live Activity over the simulated period: its pushes and when its
/// budget ran out, how long its content was behind (pushes dropped) and stale.
public struct ActivityReport: Sendable, Codable {
    public var id: String
    public var app: String
    public var attributesType: String
    public var startedAt: Date
    public var endedAt: Date?
    public var dismissedAt: Date?
    /// Its state at the end of the period.
    public var state: ActivityStateName = .active
    public var localUpdates = 0
    /// Pushes the scenario sent, and what became of them.
    public var pushesSent = 0
    public var priority10Delivered = 0
    public var priority5Delivered = 0
    public var throttled = 0
    /// Pushes delivered but not applied: older, by their timestamp, than the content shown.
    public var ignored = 0
    public var refused = 0
    /// The priority-10 budget per window, and whether the entitlement raised it.
    public var pushBudget = 0
    public var frequentUpdates = false
    /// The first push dropped for the budget.
    public var exhaustedAt: Date?
    /// Time the shown content was behind the provider's: from a dropped push to the next delivered update.
    public var behindSeconds: Double = 0
    /// Time the activity spent stale (its staleDate passed before an update).
    public var staleSeconds: Double = 0
    /// For the SVG.
    public var ticks: [ActivityTick] = []
    public var behind: [TimeSpan] = []
    public var stale: [TimeSpan] = []

    enum CodingKeys: String, CodingKey {
        case id, app, attributesType, startedAt, endedAt, dismissedAt, state, localUpdates, pushesSent,
            priority10Delivered, priority5Delivered, throttled, ignored, refused, pushBudget, frequentUpdates, exhaustedAt,
            behindSeconds, staleSeconds
    }
}

public struct ActivityTick: Sendable, Hashable {
    public var at: Date
    public var source: ActivityUpdateSource
}

public struct TimeSpan: Sendable, Hashable {
    public var from: Date
    public var until: Date
}

/// Folds activity notices into reports.
struct ActivityRecorder: Sendable {
    private var reports: [String: ActivityReport] = [:]
    private var order: [String] = []
    private var behindSince: [String: Date] = [:]
    private var staleSince: [String: Date] = [:]

    mutating func record(_ notice: ActivityNotice) {
        guard let id = notice.activityId else { return }
        if notice.event == .requested {
            reports[id] = ActivityReport(
                id: id, app: notice.app, attributesType: notice.attributesType ?? "", startedAt: notice.at)
            order.append(id)
        }
        guard var report = reports[id] else { return }
        switch notice.event {
        case .requested:
            break
        case .updated:
            switch notice.source {
            case .app: report.localUpdates += 1
            case .push5: report.priority5Delivered += 1
            case .push10: report.priority10Delivered += 1
            case .host: break
            }
            report.ticks.append(ActivityTick(at: notice.at, source: notice.source))
            close(&behindSince, id, at: notice.at) { report.behind.append($0); report.behindSeconds += $0.seconds }
            if notice.state == .active {
                close(&staleSince, id, at: notice.at) { report.stale.append($0); report.staleSeconds += $0.seconds }
            }
        case .throttled:
            report.throttled += 1
            if report.exhaustedAt == nil { report.exhaustedAt = notice.at }
            if behindSince[id] == nil { behindSince[id] = notice.at }
        case .ignored:
            report.ignored += 1
        case .stale:
            if staleSince[id] == nil { staleSince[id] = notice.at }
        case .ended:
            report.endedAt = notice.at
            if notice.source != .host {
                report.ticks.append(ActivityTick(at: notice.at, source: notice.source))
                if notice.source == .push10 { report.priority10Delivered += 1 }
            }
            close(&behindSince, id, at: notice.at) { report.behind.append($0); report.behindSeconds += $0.seconds }
            close(&staleSince, id, at: notice.at) { report.stale.append($0); report.staleSeconds += $0.seconds }
        case .dismissed:
            report.dismissedAt = notice.at
        case .refused:
            report.refused += 1
        case .rendered:
            break
        }
        reports[id] = report
    }

    mutating func pushSent(activity id: String) {
        reports[id]?.pushesSent += 1
    }

    private func close(_ open: inout [String: Date], _ id: String, at time: Date, _ add: (TimeSpan) -> Void) {
        guard let since = open.removeValue(forKey: id) else { return }
        if time > since { add(TimeSpan(from: since, until: time)) }
    }

    /// The reports at the end of the period, with each activity's budget and final state.
    mutating func result(host: WidgetHost, end: Date) -> [ActivityReport] {
        order.compactMap { id -> ActivityReport? in
            guard var report = reports[id] else { return nil }
            close(&behindSince, id, at: end) { report.behind.append($0); report.behindSeconds += $0.seconds }
            close(&staleSince, id, at: end) { report.stale.append($0); report.staleSeconds += $0.seconds }
            if let record = host.activities[id] {
                let info = host.activityInfo(record, at: end)
                report.state = info.state
                report.pushBudget = info.pushBudget.limit
                report.frequentUpdates = info.pushBudget.frequentUpdates
            } else {
                report.state = .dismissed
            }
            return report
        }
    }
}

extension TimeSpan {
    var seconds: Double { until.timeIntervalSince(from) }
}
