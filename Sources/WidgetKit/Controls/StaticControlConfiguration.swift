/// A control with no options: a kind, maybe a value provider, and a content closure that
/// returns its template (`ControlWidgetButton`, `ControlWidgetToggle`).
public struct StaticControlConfiguration<Content: ControlWidgetTemplate>: PrimitiveControlConfiguration {
    let definition: ControlDefinition

    var controlDefinitions: [ControlDefinition] { [definition] }

    public init(kind: String, @ControlWidgetTemplateBuilder content: @escaping @Sendable () -> Content) {
        definition = ControlDefinition(
            kind: kind, preview: content, current: { ControlDefinition.result(content(), value: nil) })
    }

    public init<Provider: ControlValueProvider>(
        kind: String, provider: Provider, @ControlWidgetTemplateBuilder content: @escaping @Sendable (Provider.Value) -> Content
    ) {
        definition = ControlDefinition(
            kind: kind, preview: { content(provider.previewValue) },
            current: {
                let value = try await provider.currentValue()
                return ControlDefinition.result(content(value), value: value)
            })
    }
}
