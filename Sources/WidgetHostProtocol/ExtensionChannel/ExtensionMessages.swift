import Foundation

/// Methods the host calls on an extension (host → extension on stdin, replies on stdout).
public enum ExtensionMethod: String, Sendable, CaseIterable {
    case initialize
    case placeholder = "placeholder/get"
    case snapshot = "snapshot/get"
    case timeline = "timeline/get"
}

public struct InitializeParams: Sendable, Hashable, Codable {
    /// The protocol revision the host speaks; extensions may ignore it.
    public var protocolVersion: Int
    public init(protocolVersion: Int = 1) { self.protocolVersion = protocolVersion }
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
    public init(kind: String, family: WidgetFamily) {
        self.kind = kind
        self.family = family
    }
}

public struct SnapshotParams: Sendable, Hashable, Codable {
    public var kind: String
    public var family: WidgetFamily
    public var isPreview: Bool
    public init(kind: String, family: WidgetFamily, isPreview: Bool) {
        self.kind = kind
        self.family = family
        self.isPreview = isPreview
    }
}

public struct TimelineParams: Sendable, Hashable, Codable {
    public var kind: String
    public var family: WidgetFamily
    public var widgetId: String
    /// The host's notion of now (the virtual clock's, in a simulation).
    public var now: Date
    public init(kind: String, family: WidgetFamily, widgetId: String, now: Date) {
        self.kind = kind
        self.family = family
        self.widgetId = widgetId
        self.now = now
    }
}
