import AppIntents
import SwiftUI

/// Supplies the entries of a configurable widget (`AppIntentConfiguration`): as a
/// `TimelineProvider`, but each call gets the instance's configuration, its intent with the
/// values its user picked (`configuration.project`).
///
/// The host sends each widget's configuration with `snapshot/get` and `timeline/get`; the SDK
/// rebuilds the intent from it (entities through their query's `entities(for:)`) before
/// calling the provider.
public protocol AppIntentTimelineProvider: Sendable {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: WidgetConfigurationIntent
    typealias Context = TimelineProviderContext

    /// An entry to show while the real one loads: sample data, returned at once.
    func placeholder(in context: Context) -> Entry

    /// One entry for the widget gallery (`context.isPreview`) or a transient view.
    func snapshot(for configuration: Intent, in context: Context) async -> Entry

    /// The widget's entries for this configuration, and when to ask again.
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>

    /// Preconfigured intents to offer where the user cannot edit one (watchOS on a device);
    /// none by default. widgethost lists none anywhere, so this is accepted and not asked.
    func recommendations() -> [AppIntentRecommendation<Intent>]
}

extension AppIntentTimelineProvider {
    public func recommendations() -> [AppIntentRecommendation<Intent>] { [] }
}

/// A preconfigured intent with a description, as `recommendations()` returns it.
public struct AppIntentRecommendation<Intent: AppIntent>: Sendable {
    let intent: Intent
    let description: Text

    public init(intent: Intent, description: Text) {
        self.intent = intent
        self.description = description
    }

    public init(intent: Intent, description: LocalizedStringKey) {
        self.init(intent: intent, description: Text(description))
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(intent: Intent, description: S) {
        self.init(intent: intent, description: Text(description))
    }
}
