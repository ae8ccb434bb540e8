import WidgetHostProtocol

/// An extension in the catalog, as the core needs to know it: who it belongs to and what it offers.
public struct ExtensionDescriptor: Sendable, Hashable, Codable {
    /// The bundle identifier, e.g. `com.birthdayreminders.widget`.
    public var id: String
    /// The containing app's id.
    public var app: String
    public var displayName: String
    public var widgets: [WidgetDescriptor]
    /// Its Control widgets (protocol version 3).
    public var controls: [ControlDescriptor]
    /// Its `.entitlements` grant `com.apple.developer.activity-push-notification-frequent-updates`:
    /// its app's Live Activities get the higher push budget.
    public var frequentPushUpdates: Bool

    public init(
        id: String, app: String? = nil, displayName: String? = nil, widgets: [WidgetDescriptor],
        controls: [ControlDescriptor] = [], frequentPushUpdates: Bool = false
    ) {
        self.id = id
        self.app = app ?? Self.appID(forExtension: id)
        self.displayName = displayName ?? id
        self.widgets = widgets
        self.controls = controls
        self.frequentPushUpdates = frequentPushUpdates
    }

    /// The containing app's id is the extension's bundle id minus its last component
    /// (`com.birthdayreminders.widget` → `com.birthdayreminders`).
    public static func appID(forExtension bundleID: String) -> String {
        guard let dot = bundleID.lastIndex(of: ".") else { return bundleID }
        return String(bundleID[..<dot])
    }
}
