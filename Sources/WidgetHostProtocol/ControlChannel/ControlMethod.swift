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
