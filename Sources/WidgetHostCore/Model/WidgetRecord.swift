import Foundation
import WidgetHostProtocol

/// A timeline the host accepted: entries sorted by date, and the policy that says when to reload.
public struct AcceptedTimeline: Sendable, Hashable, Codable {
    public var entries: [TimelineEntryPayload]
    public var policy: TimelinePolicy
    public var receivedAt: Date
    /// When the reload that produced it started (the policy's minimum interval counts from here).
    public var reloadStartedAt: Date
}

/// Everything the host knows about one widget instance. Persisted as is.
public struct WidgetRecord: Sendable, Hashable, Codable {
    public var info: WidgetInfo
    public var addedAt: Date
    public var pinnedBudget: Int?
    public var timeline: AcceptedTimeline?
    /// The previous timeline's entry, shown until the current timeline's first entry is due.
    public var previousEntry: TimelineEntryPayload?
    public var placeholder: TimelineEntryPayload?
    /// Start times of budgeted reloads still inside the window.
    public var ledger: [Date] = []
    /// Times the user looked at the widget, inside the window.
    public var views: [Date] = []
    public var backoff = Backoff()
    public var pending: PendingReload?
    public var running: RunningReload?
    public var lastOutcome: LastOutcome?
    public var diagnostics: [Diagnostic] = []
    /// The entry last announced as shown, to notice changes.
    public var shown: CurrentEntry?
    /// An intent tapped in this widget: running, or succeeded and waiting for the reload it
    /// asked for (its Toggle shows the new state and `invalidatableContent` dims until then).
    public var interaction: RunningIntent?

    public init(info: WidgetInfo, addedAt: Date, pinnedBudget: Int?) {
        self.info = info
        self.addedAt = addedAt
        self.pinnedBudget = pinnedBudget
    }

    public var id: WidgetID { WidgetID(info.id) }

    /// How notices name this instance.
    var noticeWidget: NoticeWidget {
        NoticeWidget(id: info.id, kind: info.kind, extension: info.extension)
    }

    func currentEntry(at now: Date) -> CurrentEntry {
        CurrentEntryRule.entry(
            at: now, entries: timeline?.entries ?? [], previous: previousEntry, placeholder: placeholder)
    }

    /// When the widget needs its next reload by policy. A widget without a timeline is due
    /// from the moment it was added.
    func policyDue(rules: PolicyRules) -> Date? {
        guard let timeline else { return addedAt }
        return ReloadPolicyRule.due(
            policy: timeline.policy, entries: timeline.entries, reloadStartedAt: timeline.reloadStartedAt,
            rules: rules)?.at
    }

    func dailyBudget(_ configuration: HostConfiguration, at now: Date) -> DailyBudget {
        DailyBudget(
            rules: configuration.budget, pinned: pinnedBudget ?? configuration.budget.pinned[info.kind],
            addedAt: addedAt, views: views, at: now)
    }
}

extension Array where Element == WidgetRecord {
    /// In `WidgetID` order (`w2` before `w10`), as `StateStore.load()` returns them.
    public var isSortedByID: Bool {
        indices.dropFirst().allSatisfy { self[$0 - 1].id < self[$0].id }
    }
}

/// The host-wide part of the persisted state.
public struct HostRecord: Sendable, Hashable, Codable {
    public var bootID: String?
    public var nextWidgetNumber = 1
    /// The simulated device's locale and text size; nil: the defaults.
    public var device: DeviceSettings?
    public init() {}
}

/// An intent a tap started, until it ends.
public struct RunningIntent: Sendable, Hashable, Codable {
    public var request: RequestID
    public var intent: IntentInvocation
    /// The button's id in the archive, when a button was tapped.
    public var button: String?
    public var startedAt: Date
    /// A toggle's new state, shown at once; rolled back if the intent fails.
    public var toggledTo: Bool?
    /// When the intent succeeded. The tap's state stays shown until a reload started at or
    /// after this instant lands, so a Toggle does not flick back to the old entry's state.
    public var endedAt: Date?

    /// The intent itself is still running: another tap on the widget waits.
    public var isRunning: Bool { endedAt == nil }
}
