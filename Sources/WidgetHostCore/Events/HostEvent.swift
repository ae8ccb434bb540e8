import Foundation
import WidgetHostProtocol

/// Everything that can happen to the host. The shell turns sockets, processes and clocks
/// into these; the core turns them into effects.
public enum HostEvent: Sendable, Hashable {
    // What happened around the host.
    /// The daemon started. A boot id different from the stored one means the device rebooted.
    case hostStarted(bootID: String)
    /// The plugin directories were scanned (again): the catalog is now these extensions.
    case catalogChanged([ExtensionDescriptor])
    /// The wall clock jumped or the time zone changed.
    case significantTimeChange
    /// The time the core asked for (`nextDeadline`) has come.
    case deadlineReached

    // Commands from users and apps.
    case widgetAdded(AddWidgetRequest)
    case widgetRemoved(WidgetID)
    case reloadRequested(ReloadRequest)
    case viewRecorded(WidgetID)
    case snapshotRequested(WidgetID, isPreview: Bool)
    /// A Live Activity request, update or end from an app, or a simulated push (`Activities/`).
    case activity(ActivityCommand)

    // App Intents: configuration, taps, controls, the device (issue 14).
    /// The user edits a configurable widget's configuration.
    case widgetConfigured(WidgetID, IntentValues)
    /// Someone asks for a configuration parameter's choices.
    case optionsRequested(kind: String, parameter: String, app: String?)
    /// The user taps a button or toggle in a widget.
    case tapped(TapRequest)
    /// The user taps a Control widget.
    case controlTapped(kind: String, app: String?)
    /// `ControlCenter.shared.reloadControls(ofKind:)` (nil kind: every control of the app, or all).
    case controlsReloadRequested(kind: String?, app: String?)
    /// The simulated device's locale or text size changes.
    case deviceChanged(DeviceSettings)

    // What an extension did with a request.
    case extensionReplied(RequestID, ExtensionReply, footprintBytes: Int?)
    case extensionFailed(RequestID, ExtensionFailure)
    /// A footprint sample taken while the request runs.
    case footprintSampled(RequestID, bytes: Int)
}

/// The user adds a widget to the home screen.
public struct AddWidgetRequest: Sendable, Hashable {
    public var kind: String
    public var family: WidgetFamily
    /// Needed only when two apps define the same kind.
    public var app: String?
    /// Pins B for this instance (a scenario's choice), overriding the engagement formula.
    public var pinnedBudget: Int?
    /// A configurable kind's intent values; what is left out takes its default.
    public var configuration: IntentValues?

    public init(
        kind: String, family: WidgetFamily, app: String? = nil, pinnedBudget: Int? = nil,
        configuration: IntentValues? = nil
    ) {
        self.kind = kind
        self.family = family
        self.app = app
        self.pinnedBudget = pinnedBudget
        self.configuration = configuration
    }
}

/// A tap on a widget's `Button(intent:)` or `Toggle(isOn:intent:)`: named (by id, intent or
/// label, see `TapParams`), or given as an intent.
public struct TapRequest: Sendable, Hashable {
    public var widget: WidgetID
    public var button: String?
    public var intent: IntentInvocation?
    public init(widget: WidgetID, button: String? = nil, intent: IntentInvocation? = nil) {
        self.widget = widget
        self.button = button
        self.intent = intent
    }
}

/// `reloadTimelines(ofKind:)`, `reloadAllTimelines()`, or one instance (a user interaction).
public struct ReloadRequest: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        case kind(String, app: String?)
        case allOfApp(String)
        case widget(WidgetID)
    }

    public var target: Target
    public var origin: ReloadOrigin

    public init(_ target: Target, origin: ReloadOrigin = .background) {
        self.target = target
        self.origin = origin
    }
}

/// Who asked for a reload; all but `.background` are exempt from the budget (Apple).
public enum ReloadOrigin: String, Sendable, Hashable, Codable {
    /// A `WidgetCenter` call from an app in the background: budgeted.
    case background
    /// The calling app says it is in the foreground.
    case foreground
    /// The user interacted with the widget.
    case userInteraction
    /// An app intent ran.
    case appIntent
}

public enum ExtensionReply: Sendable, Hashable {
    /// `timeline/get`'s result and the size of the reply line in bytes.
    case timeline(TimelinePayload, byteCount: Int)
    /// `placeholder/get` or `snapshot/get`'s result.
    case entry(TimelineEntryPayload)
    /// `intent/perform`'s result.
    case performed(IntentPerformResult)
    /// `intent/options`' result.
    case options(IntentOptionsResult)
    /// `control/value`'s result.
    case controlValue(ControlValueResult)
    /// `activity/render`'s result, undecoded (`ActivityViewValidation` decodes and checks it),
    /// and the size of the reply line in bytes.
    case activityViews(JSONValue, byteCount: Int)
}

/// How a request to an extension failed, as the shell saw it. Timeouts and memory breaches
/// detected by polling are decided by the core; the shell reports them when it detects
/// them itself (a cgroup `oom_kill`).
public enum ExtensionFailure: Sendable, Hashable {
    case timedOut(elapsed: TimeInterval)
    case memoryLimitExceeded(footprintBytes: Int)
    /// Non-zero exit, death by signal, stdout closed early.
    case crashed(String)
    /// Invalid JSON, a reply for the wrong id, a reply of the wrong shape, an oversized reply.
    case protocolError(String)
}
