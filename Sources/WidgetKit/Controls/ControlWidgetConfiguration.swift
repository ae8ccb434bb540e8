import AppIntents

/// What a `ControlWidget`'s body returns: a control kind, its template and how it is named.
/// Primitive (`StaticControlConfiguration`, `AppIntentControlConfiguration`, or one with
/// modifiers applied; their `Body` is `Never`) or composed of another through `body`.
public protocol ControlWidgetConfiguration {
    associatedtype Body: ControlWidgetConfiguration
    @ControlWidgetConfigurationBuilder var body: Body { get }
}

extension Never: ControlWidgetConfiguration {}

/// The one configuration a control's body holds.
@resultBuilder
public enum ControlWidgetConfigurationBuilder {
    public static func buildExpression<Content: ControlWidgetConfiguration>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: ControlWidgetConfiguration>(_ content: Content) -> Content { content }
}

/// A configuration the SDK reads directly; every other one is read through its body.
protocol PrimitiveControlConfiguration: ControlWidgetConfiguration where Body == Never {
    var controlDefinitions: [ControlDefinition] { get }
}

extension PrimitiveControlConfiguration {
    public var body: Never {
        fatalError("\(Self.self) is a primitive control configuration; it has no body")
    }
}

extension ControlWidgetConfiguration {
    /// The controls this configuration declares.
    var controlDefinitions: [ControlDefinition] {
        if let primitive = self as? any PrimitiveControlConfiguration {
            return primitive.controlDefinitions
        }
        return body.controlDefinitions
    }

    /// The name shown when a person adds or edits the control; by default its kind.
    public func displayName(_ displayName: LocalizedStringResource) -> some ControlWidgetConfiguration {
        modified { $0.displayName = displayName.defaultValue }
    }

    /// The sentence shown under the name when a person adds or edits the control.
    public func description(_ description: LocalizedStringResource) -> some ControlWidgetConfiguration {
        modified { $0.description = description.defaultValue }
    }

    /// Asks for the configuration when the control is added; accepted, with no effect here
    /// (the host has no add sheet; an `AppIntentControlConfiguration` uses its intent's defaults).
    public func promptsForUserConfiguration() -> some ControlWidgetConfiguration {
        modified { _ in }
    }

    private func modified(_ change: (inout ControlDefinition) -> Void) -> ResolvedControlConfiguration {
        ResolvedControlConfiguration(
            controlDefinitions: controlDefinitions.map { definition in
                var definition = definition
                change(&definition)
                return definition
            })
    }
}

/// Controls already resolved to definitions: what a modifier produces.
struct ResolvedControlConfiguration: PrimitiveControlConfiguration {
    let controlDefinitions: [ControlDefinition]
}
