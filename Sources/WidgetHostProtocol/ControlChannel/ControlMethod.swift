/// Methods a client calls on the daemon's control socket.
public enum ControlMethod: String, Sendable, CaseIterable {
    case reloadTimelines
    case reloadAllTimelines
    case getCurrentConfigurations
    case status
    case timeline
    case addWidget
    case removeWidget
    case recordView
    case extensions
    case rescan
    case subscribe
    /// Reads the daemon's clock; with `--virtual-clock`, advances it (`ClockParams`).
    case clock
    // Live Activities (ActivityKit on the host) and simulated pushes; see docs/protocol.md.
    case activityRequest = "activity/request"
    case activityUpdate = "activity/update"
    case activityEnd = "activity/end"
    case activityList = "activity/list"
    case activityGet = "activity/get"
    case activityPushToStartToken = "activity/pushToStartToken"
    case pushActivity = "push/activity"
    case pushWidget = "push/widget"
    case pushTokens = "push/tokens"

    // App Intents (issue 14).
    /// The user edits a configurable widget (`ConfigureWidgetParams`): an exempt reload.
    case configureWidget
    /// A configuration parameter's choices (`OptionsParams`), from the extension's query.
    case options
    /// The user taps a button or toggle in a widget (`TapParams`): runs its intent.
    case tap
    /// The user taps a Control widget (`TapControlParams`).
    case tapControl
    /// The Control widgets and their last values (`ControlsParams`).
    case controls
    /// `ControlCenter.shared.reloadControls(ofKind:)` / `reloadAllControls()` (`ControlsParams`).
    case reloadControls
    /// The simulated device's locale and text size (`DeviceParams`); no params reads them,
    /// changing them needs an admin peer.
    case device

    /// Methods that change which widgets or extensions exist need an admin peer.
    public var requiresAdmin: Bool {
        switch self {
        case .addWidget, .removeWidget, .rescan, .configureWidget: true
        default: false
        }
    }

    /// Whether one of the host's own extension processes may call it: what a widget extension
    /// may do through `WidgetCenter` on a device. Exhaustive, so a new method must decide.
    public var availableToExtensions: Bool {
        switch self {
        case .reloadTimelines, .reloadAllTimelines, .getCurrentConfigurations: true
        case .status, .timeline, .addWidget, .removeWidget, .recordView, .extensions, .rescan, .subscribe, .clock: false
        // ActivityKit is the app's, and pushes come from a push provider: not an extension's.
        case .activityRequest, .activityUpdate, .activityEnd, .activityList, .activityGet, .activityPushToStartToken,
            .pushActivity, .pushWidget, .pushTokens:
            false
        // An App Intent running in the extension may reload its app's controls, as
        // ControlCenter allows on a device; configuring, taps and the device are the user's.
        case .reloadControls: true
        case .configureWidget, .options, .tap, .tapControl, .controls, .device: false
        }
    }

    /// The notification method of the `subscribe` stream.
    public static let eventNotification = "event"
}
