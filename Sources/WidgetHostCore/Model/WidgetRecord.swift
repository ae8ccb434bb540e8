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
///
/// Its fields live out of line (an immutable box; a change makes a new one): a record
/// holds one only while a tap's intent runs or waits for its reload, and inline it was 96
/// of the record's bytes for every widget (docs/benchmarks.md, figure 4).
public struct RunningIntent: Sendable, Hashable, Codable {
    private struct Fields: Sendable, Hashable, Codable {
        var request: RequestID
        var intent: IntentInvocation
        var button: String?
        var startedAt: Date
        var toggledTo: Bool?
        var endedAt: Date?
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    private var fields: Fields {
        get { box.fields }
        set { box = Box(newValue) }
    }

    init(request: RequestID, intent: IntentInvocation, button: String?, startedAt: Date, toggledTo: Bool?, endedAt: Date? = nil) {
        box = Box(
            Fields(request: request, intent: intent, button: button, startedAt: startedAt, toggledTo: toggledTo, endedAt: endedAt))
    }

    public var request: RequestID {
        get { fields.request }
        set { fields.request = newValue }
    }
    public var intent: IntentInvocation {
        get { fields.intent }
        set { fields.intent = newValue }
    }
    /// The button's id in the archive, when a button was tapped.
    public var button: String? {
        get { fields.button }
        set { fields.button = newValue }
    }
    public var startedAt: Date {
        get { fields.startedAt }
        set { fields.startedAt = newValue }
    }
    /// A toggle's new state, shown at once; rolled back if the intent fails.
    public var toggledTo: Bool? {
        get { fields.toggledTo }
        set { fields.toggledTo = newValue }
    }
    /// When the intent succeeded. The tap's state stays shown until a reload started at or
    /// after this instant lands, so a Toggle does not flick back to the old entry's state.
    public var endedAt: Date? {
        get { fields.endedAt }
        set { fields.endedAt = newValue }
    }

    /// The intent itself is still running: another tap on the widget waits.
    public var isRunning: Bool { endedAt == nil }

    public init(from decoder: any Decoder) throws { box = Box(try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.fields == rhs.fields }
    public func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}
