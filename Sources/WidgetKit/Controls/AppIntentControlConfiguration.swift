import AppIntents

/// A control with options: its configuration intent's parameters are declared in
/// `initialize` (`ControlDescriptor.intent`). The host keeps one control per kind and does
/// not edit its options, so the content and the provider get the intent with its defaults.
public struct AppIntentControlConfiguration<Configuration: ControlConfigurationIntent, Content: ControlWidgetTemplate>:
    PrimitiveControlConfiguration
{
    let definition: ControlDefinition

    var controlDefinitions: [ControlDefinition] { [definition] }

    public init<Provider: AppIntentControlValueProvider>(
        kind: String, provider: Provider, @ControlWidgetTemplateBuilder content: @escaping @Sendable (Provider.Value) -> Content
    ) where Configuration == Provider.Configuration {
        definition = ControlDefinition(
            kind: kind, intent: _IntentRuntime.schema(Configuration.self),
            preview: { content(provider.previewValue(configuration: Configuration())) },
            current: {
                let value = try await provider.currentValue(configuration: Configuration())
                return ControlDefinition.result(content(value), value: value)
            })
    }

    public init(
        kind: String, intent: Configuration.Type = Configuration.self,
        @ControlWidgetTemplateBuilder content: @escaping @Sendable (Configuration) -> Content
    ) {
        definition = ControlDefinition(
            kind: kind, intent: _IntentRuntime.schema(Configuration.self), preview: { content(Configuration()) },
            current: { ControlDefinition.result(content(Configuration()), value: nil) })
    }
}
