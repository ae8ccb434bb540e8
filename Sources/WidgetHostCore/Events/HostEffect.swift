import Foundation
import WidgetHostProtocol

/// What the core asks the shell to do. Effects are executed in order.
public enum HostEffect: Sendable, Hashable {
    /// Send a request to an extension, starting its process first if none runs.
    /// The shell samples footprint every `limits.memorySampleInterval` until it answers.
    case send(ExtensionRequest)
    /// SIGKILL the extension's process group now (like jetsam).
    case kill(extension: String, reason: ReloadResultKind)
    /// The extension has been idle for `extension.idle_timeout`: SIGTERM, then SIGKILL after 2 s.
    case terminate(extension: String)
    /// These widget records changed (or were removed) in this step: write them in one transaction.
    case persist(PersistScope)
    /// Tell subscribers and the log.
    case notice(HostNotice)
    /// The answer to a command that was answered `.answerLater(id)`: send it to whoever waits.
    case answer(RequestID, HostReply)
}

public struct ExtensionRequest: Sendable, Hashable {
    /// Indirect: a request is copied into its queue, its in-flight record, the `send` effect
    /// and the runner; a boxed call copies as one reference.
    public indirect enum Call: Sendable, Hashable {
        case placeholder(PlaceholderParams)
        case snapshot(SnapshotParams)
        case timeline(TimelineParams)
        case perform(IntentPerformParams)
        case options(IntentOptionsParams)
        case controlValue(ControlValueParams)
        /// A Live Activity's views (`Activities/WidgetHost+ActivityViews.swift`).
        case activityRender(ActivityRenderParams)

        public var method: ExtensionMethod {
            switch self {
            case .placeholder: .placeholder
            case .snapshot: .snapshot
            case .timeline: .timeline
            case .perform: .intentPerform
            case .options: .intentOptions
            case .controlValue: .controlValue
            case .activityRender: .activityRender
            }
        }
    }

    public var id: RequestID
    public var `extension`: String
    /// The widget the request is for; nil for a control's or a client's request.
    public var widget: WidgetID?
    public var call: Call
    /// When the core will declare it timed out.
    public var deadline: Date
}

public struct PersistScope: Sendable, Hashable {
    public var changed: [WidgetID]
    public var removed: [WidgetID]
    /// The host-wide record (boot id, id counter) changed.
    public var host: Bool
    /// The Live Activities that changed.
    public var activities: ActivityPersistScope

    public init(
        changed: [WidgetID], removed: [WidgetID], host: Bool,
        activities: ActivityPersistScope = ActivityPersistScope(changed: [], removed: [], host: false)
    ) {
        self.changed = changed
        self.removed = removed
        self.host = host
        self.activities = activities
    }
}
