import AppIntents

/// Gives a control its value: `previewValue` at once (the control as `initialize` declares
/// it), `currentValue()` when the host asks (`control/value`, within `limits.intent_timeout`).
/// A `currentValue()` that throws leaves the control as it was, with the error as the reason.
public protocol ControlValueProvider: Sendable {
    associatedtype Value: Sendable
    var previewValue: Value { get }
    func currentValue() async throws -> Value
}

/// A `ControlValueProvider` that reads the control's configuration intent. The host keeps
/// one control per kind, so the configuration it gets is the intent with its defaults.
public protocol AppIntentControlValueProvider: Sendable {
    associatedtype Value: Sendable
    associatedtype Configuration: ControlConfigurationIntent
    func previewValue(configuration: Configuration) -> Value
    func currentValue(configuration: Configuration) async throws -> Value
}
