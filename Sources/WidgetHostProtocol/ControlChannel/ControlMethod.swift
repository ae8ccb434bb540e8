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

    /// Methods that change which widgets or extensions exist need an admin peer.
    public var requiresAdmin: Bool {
        switch self {
        case .addWidget, .removeWidget, .rescan: true
        default: false
        }
    }

    /// The notification method of the `subscribe` stream.
    public static let eventNotification = "event"
}
