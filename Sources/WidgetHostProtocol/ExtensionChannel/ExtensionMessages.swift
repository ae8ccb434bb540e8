import Foundation

/// Methods the host calls on an extension (host → extension on stdin, replies on stdout).
public enum ExtensionMethod: String, Sendable, CaseIterable {
    case initialize
    case placeholder = "placeholder/get"
    case snapshot = "snapshot/get"
    case timeline = "timeline/get"
    /// Runs an intent's `perform()` (protocol version 3).
    case intentPerform = "intent/perform"
    /// A configuration parameter's choices (protocol version 3).
    case intentOptions = "intent/options"
    /// A Control widget's current value (protocol version 3).
    case controlValue = "control/value"
    /// A Live Activity's Lock Screen view and Dynamic Island presentations (protocol version 3).
    case activityRender = "activity/render"
}

/// The protocol revision this build speaks. 2 added view archives (an entry's `view`) and
/// the requests' `environment`; 3 added App Intents (a kind's `intent` schema and its
/// `configuration` in requests, `controls`, `intent/perform`, `intent/options`,
/// `control/value`, the `button` and `toggle` nodes) and `activity/render`. Everything of 1 and 2 is still valid.
public let protocolVersion = 3

public struct InitializeParams: Sendable, Hashable, Codable {
    /// The protocol revision the host speaks; extensions may ignore it.
    public var protocolVersion: Int
    public init(protocolVersion: Int = WidgetHostProtocol.protocolVersion) { self.protocolVersion = protocolVersion }
}

/// One widget kind an extension offers, as it would appear in the widget gallery.
public struct WidgetDescriptor: Sendable, Hashable, Codable {
    public var kind: String
    public var displayName: String
    public var description: String
    public var supportedFamilies: [WidgetFamily]
    /// A configurable kind's intent (`AppIntentConfiguration`); absent for a static one.
    public var intent: IntentSchema?

    public init(
        kind: String, displayName: String, description: String, supportedFamilies: [WidgetFamily],
        intent: IntentSchema? = nil
    ) {
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.supportedFamilies = supportedFamilies
        self.intent = intent
    }
}

public struct InitializeResult: Sendable, Hashable, Codable {
    public var widgets: [WidgetDescriptor]
    /// Control widgets (protocol version 3); absent: none.
    public var controls: [ControlDescriptor]?
    /// The `ActivityAttributes` types it has an `ActivityConfiguration` for, by name
    /// (protocol version 3): the host asks it for those Live Activities' views
    /// (`activity/render`). Absent: none.
    public var activities: [String]?
    /// True: the extension reads its requests while it answers, one after the other and in
    /// order, so the host may write `placeholder/get`, `snapshot/get` and `timeline/get`
    /// requests ahead of the answer to the one before (protocol version 3). Absent or false:
    /// one request at a time.
    public var pipelining: Bool?
    public init(
        widgets: [WidgetDescriptor], controls: [ControlDescriptor]? = nil, activities: [String]? = nil,
        pipelining: Bool? = nil
    ) {
        self.widgets = widgets
        self.controls = controls
        self.activities = activities
        self.pipelining = pipelining
    }
}

public struct PlaceholderParams: Sendable, Hashable, Codable {
    public var kind: String
    public var family: WidgetFamily
    /// The environment to render the entry's view in (protocol version 2); absent: the defaults.
    public var environment: ViewEnvironment?
    public init(kind: String, family: WidgetFamily, environment: ViewEnvironment? = nil) {
        self.kind = kind
        self.family = family
        self.environment = environment
    }
}

public struct SnapshotParams: Sendable, Hashable, Codable {
    public var kind: String
    public var family: WidgetFamily
    public var isPreview: Bool
    public var environment: ViewEnvironment?
    /// The widget's configuration intent's values (a configurable kind, protocol version 3).
    public var configuration: IntentValues?
    public init(
        kind: String, family: WidgetFamily, isPreview: Bool, environment: ViewEnvironment? = nil,
        configuration: IntentValues? = nil
    ) {
        self.kind = kind
        self.family = family
        self.isPreview = isPreview
        self.environment = environment
        self.configuration = configuration
    }
}

public struct TimelineParams: Sendable, Hashable, Codable {
    public var kind: String
    public var family: WidgetFamily
    public var widgetId: String
    /// The host's notion of now (the virtual clock's, in a simulation).
    public var now: Date
    public var environment: ViewEnvironment?
    /// The widget's configuration intent's values (a configurable kind, protocol version 3).
    public var configuration: IntentValues?
    public init(
        kind: String, family: WidgetFamily, widgetId: String, now: Date, environment: ViewEnvironment? = nil,
        configuration: IntentValues? = nil
    ) {
        self.kind = kind
        self.family = family
        self.widgetId = widgetId
        self.now = now
        self.environment = environment
        self.configuration = configuration
    }
}
