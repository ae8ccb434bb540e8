import WidgetHostProtocol

/// One control kind with its provider and template erased: what `initialize` lists, and a
/// closure that answers `control/value`. The server deals only in these.
struct ControlDefinition: Sendable {
    var kind: String
    var displayName: String
    var description: String
    /// The configuration intent of an `AppIntentControlConfiguration`.
    let intent: IntentSchema?
    /// The template built with the provider's preview value.
    let preview: @Sendable () -> ResolvedControl
    /// The template built with the provider's current value (`currentValue()` may throw).
    let current: @Sendable () async throws -> ControlValueResult

    init(
        kind: String, intent: IntentSchema? = nil, preview: @escaping @Sendable () -> some ControlWidgetTemplate,
        current: @escaping @Sendable () async throws -> ControlValueResult
    ) {
        self.kind = kind
        // As for widgets: no name of its own, no description.
        displayName = kind
        description = ""
        self.intent = intent
        self.preview = { preview().resolvedControl }
        self.current = current
    }

    /// What `initialize` declares: the style and the action as the preview value builds them.
    var descriptor: ControlDescriptor {
        let resolved = preview()
        return ControlDescriptor(
            kind: kind, displayName: displayName, description: description, style: resolved.style,
            action: resolved.action, intent: intent)
    }

    /// What `control/value` answers for a template built from `value`: the template, and the
    /// value itself as JSON when it is encodable and not just the toggle's state.
    static func result(_ template: some ControlWidgetTemplate, value: Any?) -> ControlValueResult {
        var result = template.resolvedControl.value
        if let encodable = value as? any Encodable, !(value is Bool) {
            result.value = try? JSONValue(encoding: encodable)
        }
        return result
    }
}
