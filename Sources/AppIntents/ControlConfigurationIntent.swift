/// The intent of an `AppIntentControlConfiguration`: its parameters are the control's
/// options. As with `WidgetConfigurationIntent`, `perform()` need not be written.
public protocol ControlConfigurationIntent: AppIntent {}

extension ControlConfigurationIntent {
    public func perform() async throws -> some IntentResult { .result() }
}
