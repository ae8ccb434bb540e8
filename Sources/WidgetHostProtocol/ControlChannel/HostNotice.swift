import Foundation

/// Something that happened in the host, as the core says it: each case carries exactly what
/// that kind of notice has. `subscribe` and the harness's event log send it flattened
/// (`HostNotice+Wire.swift`), so that `jq 'select(.type=="reloadDeferred")'` just works.
/// Indirect: a notice is copied from the core's effects to every sink, and a boxed payload
/// copies as one reference instead of three names, dates and an entry.
public indirect enum HostNotice: Sendable, Hashable {
    case widgetAdded(NoticeWidget, at: Date)
    case widgetRemoved(NoticeWidget, at: Date)
    /// `requestedAt`: when the reload was first requested or fell due (for staleness).
    case reloadStarted(NoticeWidget, at: Date, charge: ReloadCharge, requestedAt: Date)
    /// A request merged into the reload already waiting, which runs at `until` (nil: when
    /// the running reload ends) because of `reason`.
    case reloadCoalesced(NoticeWidget, at: Date, budgeted: Bool, until: Date?, reason: DeferralReason)
    /// The waiting reload cannot start before `until` (nil: not known yet) because of `reason`.
    case reloadDeferred(
        NoticeWidget, at: Date, budgeted: Bool, requestedAt: Date, until: Date?, reason: DeferralReason)
    /// `detail` says why a reload failed; nil on success.
    case reloadFinished(
        NoticeWidget, at: Date, budgeted: Bool, result: ReloadResultKind, durationMs: Double,
        footprintBytes: Int?, detail: String?)
    /// What the widget shows changed; `entry` is nil when it shows nothing.
    case entryChanged(NoticeWidget, at: Date, entry: TimelineEntryPayload?, source: EntrySource)
    case diagnostic(NoticeWidget, Diagnostic)
    case snapshotReceived(NoticeWidget, at: Date, entry: TimelineEntryPayload)
    /// The process of `extension` was killed while it ran a request for `widgetId` (nil: a
    /// request for a control or a client, not a widget).
    case extensionKilled(
        extension: String, widgetId: String?, at: Date, result: ReloadResultKind, durationMs: Double,
        footprintBytes: Int?, detail: String)
    /// The process of `extension` was stopped after it had been idle; `detail` says how long.
    case extensionStopped(extension: String, at: Date, detail: String)
    /// A tap started an intent in `widgetId` (on its `button`, a Toggle turning `isOn`), or on
    /// the control `control`. `intentFinished` follows.
    case intentStarted(
        extension: String, widgetId: String?, control: String?, at: Date, intent: String, button: String?, isOn: Bool?)
    /// An intent ran (a tap in `widgetId`, or on the control `control`) and ended with `outcome`.
    case intentFinished(
        extension: String, widgetId: String?, control: String?, at: Date, intent: String, outcome: IntentOutcome,
        durationMs: Double, detail: String?)
    /// A Control widget's value provider answered (`value`) or failed (`detail`).
    case controlUpdated(extension: String, control: String, at: Date, value: ControlValueResult?, detail: String?)
    /// A Live Activity or push event (`ActivityNotice.event` gives the type: `activityUpdated`, …).
    case activity(ActivityNotice)

    /// The notice's `type` on the wire.
    public enum NoticeType: String, Sendable, Hashable, Codable, CaseIterable {
        case widgetAdded
        case widgetRemoved
        case reloadStarted
        case reloadCoalesced
        case reloadDeferred
        case reloadFinished
        case entryChanged
        case diagnostic
        case extensionKilled
        case extensionStopped
        case snapshotReceived
        case intentStarted
        case intentFinished
        case controlUpdated
        case activityRequested
        case activityUpdated
        case activityThrottled
        case activityIgnored
        case activityStale
        case activityEnded
        case activityDismissed
        case activityRefused
        case activityRendered

        init(_ event: ActivityNotice.Event) {
            switch event {
            case .requested: self = .activityRequested
            case .updated: self = .activityUpdated
            case .throttled: self = .activityThrottled
            case .ignored: self = .activityIgnored
            case .stale: self = .activityStale
            case .ended: self = .activityEnded
            case .dismissed: self = .activityDismissed
            case .refused: self = .activityRefused
            case .rendered: self = .activityRendered
            }
        }

        var activityEvent: ActivityNotice.Event? {
            switch self {
            case .activityRequested: .requested
            case .activityUpdated: .updated
            case .activityThrottled: .throttled
            case .activityIgnored: .ignored
            case .activityStale: .stale
            case .activityEnded: .ended
            case .activityDismissed: .dismissed
            case .activityRefused: .refused
            case .activityRendered: .rendered
            default: nil
            }
        }
    }

    public var type: NoticeType {
        switch self {
        case .widgetAdded: .widgetAdded
        case .widgetRemoved: .widgetRemoved
        case .reloadStarted: .reloadStarted
        case .reloadCoalesced: .reloadCoalesced
        case .reloadDeferred: .reloadDeferred
        case .reloadFinished: .reloadFinished
        case .entryChanged: .entryChanged
        case .diagnostic: .diagnostic
        case .snapshotReceived: .snapshotReceived
        case .extensionKilled: .extensionKilled
        case .extensionStopped: .extensionStopped
        case .intentStarted: .intentStarted
        case .intentFinished: .intentFinished
        case .controlUpdated: .controlUpdated
        case .activity(let notice): NoticeType(notice.event)
        }
    }

    public var at: Date {
        switch self {
        case .widgetAdded(_, let at), .widgetRemoved(_, let at), .reloadStarted(_, let at, _, _),
            .reloadCoalesced(_, let at, _, _, _), .reloadDeferred(_, let at, _, _, _, _),
            .reloadFinished(_, let at, _, _, _, _, _), .entryChanged(_, let at, _, _),
            .snapshotReceived(_, let at, _), .extensionKilled(_, _, let at, _, _, _, _),
            .extensionStopped(_, let at, _), .intentStarted(_, _, _, let at, _, _, _),
            .intentFinished(_, _, _, let at, _, _, _, _),
            .controlUpdated(_, _, let at, _, _):
            at
        case .diagnostic(_, let diagnostic): diagnostic.at
        case .activity(let notice): notice.at
        }
    }

    /// The widget instance the notice is about; nil for the notices of an extension's process.
    public var widget: NoticeWidget? { subject.widget }

    /// The widget instance's id; for `extensionKilled`, the widget whose request was running.
    public var widgetId: String? { subject.widgetId }

    /// The bundle id of the extension concerned; for an activity notice, its app's id.
    public var `extension`: String { subject.extension }

    private var subject: (widget: NoticeWidget?, widgetId: String?, extension: String) {
        switch self {
        case .widgetAdded(let widget, _), .widgetRemoved(let widget, _), .reloadStarted(let widget, _, _, _),
            .reloadCoalesced(let widget, _, _, _, _), .reloadDeferred(let widget, _, _, _, _, _),
            .reloadFinished(let widget, _, _, _, _, _, _), .entryChanged(let widget, _, _, _),
            .diagnostic(let widget, _), .snapshotReceived(let widget, _, _):
            (widget, widget.id, widget.extension)
        case .extensionKilled(let ext, let widgetId, _, _, _, _, _): (nil, widgetId, ext)
        case .extensionStopped(let ext, _, _), .controlUpdated(let ext, _, _, _, _): (nil, nil, ext)
        case .intentStarted(let ext, let widgetId, _, _, _, _, _), .intentFinished(let ext, let widgetId, _, _, _, _, _, _):
            (nil, widgetId, ext)
        case .activity(let notice): (nil, nil, notice.app)
        }
    }

    /// How the reload (`reloadFinished`) or the killed request (`extensionKilled`) ended.
    public var result: ReloadResultKind? {
        switch self {
        case .reloadFinished(_, _, _, let result, _, _, _), .extensionKilled(_, _, _, let result, _, _, _): result
        default: nil
        }
    }
}

/// The widget instance a notice is about, as notices name it.
public struct NoticeWidget: Sendable, Hashable {
    public var id: String
    public var kind: String
    /// The bundle id of its extension.
    public var `extension`: String

    public init(id: String, kind: String, extension: String) {
        self.id = id
        self.kind = kind
        self.extension = `extension`
    }
}

/// How a reload that started is paid for.
public enum ReloadCharge: Sendable, Hashable {
    /// It counts against the widget's daily budget.
    case budgeted
    case exempt(Exemption)
    /// It was charged once already (its process died under it, or the host restarted).
    case prepaid

    public var isBudgeted: Bool { self == .budgeted }
}
