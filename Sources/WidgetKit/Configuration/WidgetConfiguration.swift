/// What a `Widget`'s body returns: a widget kind, how it is described in the gallery,
/// and the families it supports. As in SwiftUI, a configuration is either primitive
/// (`StaticConfiguration`, or one with modifiers applied; their `Body` is `Never`) or
/// composed of another through `body`.
public protocol WidgetConfiguration {
    associatedtype Body: WidgetConfiguration
    var body: Body { get }
}

extension Never: WidgetConfiguration {
    public var body: Never {
        switch self {}
    }
}

/// A configuration the SDK can read directly; every other one is read through its body.
protocol PrimitiveWidgetConfiguration: WidgetConfiguration where Body == Never {
    var definitions: [WidgetDefinition] { get }
    /// The Live Activities it declares (`ActivityConfiguration`); none by default.
    var activityRenderers: [ActivityRenderer] { get }
    /// The Control widgets listed beside the widgets (a `WidgetBundle`'s); none by default.
    var bundledControls: [ControlDefinition] { get }
}

extension PrimitiveWidgetConfiguration {
    var activityRenderers: [ActivityRenderer] { [] }
    var bundledControls: [ControlDefinition] { [] }
}

extension PrimitiveWidgetConfiguration {
    public var body: Never {
        fatalError("\(Self.self) is a primitive widget configuration; it has no body")
    }
}

extension WidgetConfiguration {
    /// The widget kinds this configuration declares, in order.
    var definitions: [WidgetDefinition] {
        if let primitive = self as? any PrimitiveWidgetConfiguration {
            return primitive.definitions
        }
        return body.definitions
    }

    /// The Live Activities this configuration declares, in order.
    var activityRenderers: [ActivityRenderer] {
        if let primitive = self as? any PrimitiveWidgetConfiguration {
            return primitive.activityRenderers
        }
        return body.activityRenderers
    }

    /// The Control widgets this configuration declares, in order.
    var bundledControls: [ControlDefinition] {
        if let primitive = self as? any PrimitiveWidgetConfiguration {
            return primitive.bundledControls
        }
        return body.bundledControls
    }

    /// The name shown in the widget gallery.
    public func configurationDisplayName<S: StringProtocol>(_ displayName: S) -> some WidgetConfiguration {
        modified { $0.displayName = String(displayName) }
    }

    /// The sentence shown under the name in the widget gallery.
    public func description<S: StringProtocol>(_ description: S) -> some WidgetConfiguration {
        modified { $0.description = String(description) }
    }

    /// The sizes the widget can be added in; by default systemSmall, systemMedium, systemLarge.
    public func supportedFamilies(_ families: [WidgetFamily]) -> some WidgetConfiguration {
        modified { $0.supportedFamilies = families }
    }

    private func modified(_ change: (inout WidgetDefinition) -> Void) -> ResolvedConfiguration {
        ResolvedConfiguration(
            definitions: definitions.map { definition in
                var definition = definition
                change(&definition)
                return definition
            }, activityRenderers: activityRenderers, bundledControls: bundledControls)
    }
}

/// Kinds already resolved to definitions: what a modifier or a WidgetBundle produces.
struct ResolvedConfiguration: PrimitiveWidgetConfiguration {
    let definitions: [WidgetDefinition]
    var activityRenderers: [ActivityRenderer] = []
    var bundledControls: [ControlDefinition] = []
}
