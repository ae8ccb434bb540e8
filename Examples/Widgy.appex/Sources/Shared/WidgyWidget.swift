import Foundation
import SwiftUI
import WidgetKit

/// Widgy's widget: a user-designed widget described by a JSON config; each instance picks
/// which saved design it shows (`SelectWidgetIntent`).
public struct WidgyWidget: Widget {
    public static let kind = "WidgyWidget"

    let provider: WidgyProvider

    public init() { provider = WidgyProvider() }

    public init(provider: WidgyProvider) { self.provider = provider }

    public var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: Self.kind, intent: SelectWidgetIntent.self, provider: provider) { entry in
            WidgyEntryView(entry: entry)
        }
        .configurationDisplayName("Widgy")
        .description("A widget you designed in Widgy.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

/// What the widget shows: the bound node tree and background, or the empty or problem state.
public struct WidgySummary: Encodable, Sendable, Hashable {
    public static let emptyMessage = "Create a widget in Widgy"

    public var family: WidgetFamily
    public var emptyState: String?
    public var problem: String?
    public var widgetID: String?
    public var name: String?
    public var background: JSON?
    public var layout: JSON?
    /// Placeholders with no value in the app's data.
    public var missingData: [String]?

    public init(entry: WidgyEntry) {
        family = entry.family
        switch entry.state {
        case .empty:
            emptyState = Self.emptyMessage
        case .problem(let message):
            problem = message
        case .widget(let config, let bound):
            widgetID = config.widgetID
            name = config.name
            background = config.background
            layout = bound.layout
            missingData = bound.missing.isEmpty ? nil : bound.missing
        }
    }
}
