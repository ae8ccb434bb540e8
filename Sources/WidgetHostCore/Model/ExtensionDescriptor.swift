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
    /// The `ActivityAttributes` types it draws Live Activities for (`initialize`'s `activities`).
    public var activities: [String]
    /// It reads requests while it answers and answers them in order (`initialize`'s
    /// `pipelining`): entry and timeline requests may be written to it ahead of their turn.
    public var pipelining: Bool

    public init(
        id: String, app: String? = nil, displayName: String? = nil, widgets: [WidgetDescriptor],
        controls: [ControlDescriptor] = [], frequentPushUpdates: Bool = false, activities: [String] = [],
        pipelining: Bool = false
    ) {
        self.id = id
        self.app = app ?? Self.appID(forExtension: id)
        self.displayName = displayName ?? id
        self.widgets = widgets
        self.controls = controls
        self.frequentPushUpdates = frequentPushUpdates
        self.activities = activities
        self.pipelining = pipelining
    }

    private enum CodingKeys: String, CodingKey {
        case id, app, displayName, widgets, controls, frequentPushUpdates, activities, pipelining
    }

    /// Descriptors written before `activities` existed decode with none, and without pipelining.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        app = try container.decode(String.self, forKey: .app)
        displayName = try container.decode(String.self, forKey: .displayName)
        widgets = try container.decode([WidgetDescriptor].self, forKey: .widgets)
        controls = try container.decode([ControlDescriptor].self, forKey: .controls)
        frequentPushUpdates = try container.decode(Bool.self, forKey: .frequentPushUpdates)
        activities = try container.decodeIfPresent([String].self, forKey: .activities) ?? []
        pipelining = try container.decodeIfPresent(Bool.self, forKey: .pipelining) ?? false
    }

    /// The containing app's id is the extension's bundle id minus its last component
    /// (`com.birthdayreminders.widget` → `com.birthdayreminders`).
    public static func appID(forExtension bundleID: String) -> String {
        guard let dot = bundleID.lastIndex(of: ".") else { return bundleID }
        return String(bundleID[..<dot])
    }
}
