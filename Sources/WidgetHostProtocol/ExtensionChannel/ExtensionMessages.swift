import Foundation

/// Methods the host calls on an extension (host → extension on stdin, replies on stdout).
public enum ExtensionMethod: String, Sendable, CaseIterable {
    case initialize
    case placeholder = "placeholder/get"
    case snapshot = "snapshot/get"
    case timeline = "timeline/get"
}

/// The protocol revision this build speaks. 2 added view archives (an entry's `view`) and
/// the requests' `environment`; everything of 1 is still valid.
public let protocolVersion = 2

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

    public init(kind: String, displayName: String, description: String, supportedFamilies: [WidgetFamily]) {
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.supportedFamilies = supportedFamilies
    }
}

public struct InitializeResult: Sendable, Hashable, Codable {
    public var widgets: [WidgetDescriptor]
    public init(widgets: [WidgetDescriptor]) { self.widgets = widgets }
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
    public init(kind: String, family: WidgetFamily, isPreview: Bool, environment: ViewEnvironment? = nil) {
        self.kind = kind
        self.family = family
        self.isPreview = isPreview
        self.environment = environment
    }
}

public struct TimelineParams: Sendable, Hashable, Codable {
    public var kind: String
    public var family: WidgetFamily
    public var widgetId: String
    /// The host's notion of now (the virtual clock's, in a simulation).
    public var now: Date
    public var environment: ViewEnvironment?
    public init(kind: String, family: WidgetFamily, widgetId: String, now: Date, environment: ViewEnvironment? = nil) {
        self.kind = kind
        self.family = family
        self.widgetId = widgetId
        self.now = now
        self.environment = environment
    }
}
