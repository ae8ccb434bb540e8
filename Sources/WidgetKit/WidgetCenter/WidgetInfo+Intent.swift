import AppIntents
import WidgetHostProtocol

extension WidgetInfo {
    /// The widget's configuration intent, with the values its user picked: nil for a widget
    /// without one (a `StaticConfiguration`), or whose values do not fit `intentType` (another
    /// kind's intent).
    ///
    /// Entity values are found through their query's `entities(for:)`, which is `async`: this
    /// method waits for it, as Apple's synchronous signature asks. Call it from synchronous code
    /// or a thread of your own rather than from many tasks at once, since each call holds its
    /// thread while the query runs.
    public func widgetConfigurationIntent<Intent: WidgetConfigurationIntent>(
        of intentType: Intent.Type = Intent.self
    ) -> Intent? {
        guard let configuration else { return nil }
        let names = Set(_IntentRuntime.schema(intentType).parameters.map(\.name))
        guard configuration.keys.allSatisfy(names.contains) else { return nil }
        let slot = Slot<Intent?>()
        Task.detached { slot.fill(try? await _IntentRuntime.make(intentType, values: configuration)) }
        return slot.take()
    }
}
