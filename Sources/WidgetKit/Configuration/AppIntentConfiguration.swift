import AppIntents
import SwiftUI

/// A widget its user configures: each instance carries its own `Intent`, with the values its
/// user picked, and the provider builds entries for it (`timeline(for:in:)`).
///
/// ```swift
/// AppIntentConfiguration(kind: "ProjectStatus", intent: SelectProjectIntent.self, provider: Provider()) { entry in
///     ProjectView(entry: entry)
/// }
/// ```
///
/// `initialize` declares the intent's parameters (their types, defaults, and whether the choices
/// come from an `EntityQuery`); the host validates each instance's configuration against them,
/// stores it with the widget, and sends it with every `snapshot/get` and `timeline/get`. The
/// gallery names the kind by the intent's `title` and `description` unless
/// `.configurationDisplayName` and `.description` say otherwise, as on a device.
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: PrimitiveWidgetConfiguration {
    let definition: WidgetDefinition

    var definitions: [WidgetDefinition] { [definition] }

    public init<Provider: AppIntentTimelineProvider>(
        kind: String, intent: Intent.Type = Intent.self, provider: Provider,
        @ViewBuilder content: @escaping @Sendable (Provider.Entry) -> Content
    ) where Intent == Provider.Intent {
        definition = WidgetDefinition(kind: kind, intentProvider: provider, view: content)
    }
}
