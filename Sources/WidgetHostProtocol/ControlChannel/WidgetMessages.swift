import Foundation

/// A widget instance as `WidgetCenter.getCurrentConfigurations` reports it.
public struct WidgetInfo: Sendable, Hashable, Codable {
    public var id: String
    public var kind: String
    public var family: WidgetFamily
    public var app: String
    public var `extension`: String
    /// A configurable widget's intent values, as its user set them (`widgetConfigurationIntent(of:)`).
    public var configuration: IntentValues?

    public init(
        id: String, kind: String, family: WidgetFamily, app: String, extension: String,
        configuration: IntentValues? = nil
    ) {
        self.id = id
        self.kind = kind
        self.family = family
        self.app = app
        self.extension = `extension`
        self.configuration = configuration
    }
}

public struct GetCurrentConfigurationsParams: Sendable, Hashable, Codable {
    public var app: String?
    public init(app: String? = nil) { self.app = app }
}

public struct AddWidgetParams: Sendable, Hashable, Codable {
    public var kind: String
    public var family: WidgetFamily
    /// Needed only when two apps define the same kind.
    public var app: String?
    /// A configurable kind's intent values; what is not given takes its default.
    public var configuration: IntentValues?
    public init(kind: String, family: WidgetFamily, app: String? = nil, configuration: IntentValues? = nil) {
        self.kind = kind
        self.family = family
        self.app = app
        self.configuration = configuration
    }
}

public struct AddWidgetResult: Sendable, Hashable, Codable {
    public var widget: WidgetInfo
    public var reload: WidgetReloadOutcome
    public init(widget: WidgetInfo, reload: WidgetReloadOutcome) {
        self.widget = widget
        self.reload = reload
    }
}

/// Params of `removeWidget`, `recordView`, `timeline`.
public struct WidgetIDParams: Sendable, Hashable, Codable {
    public var id: String
    public init(id: String) { self.id = id }
}

public struct StatusParams: Sendable, Hashable, Codable {
    public var id: String?
    public init(id: String? = nil) { self.id = id }
}
