import AppIntents
import Foundation
import WidgetKit

public struct WidgyEntry: TimelineEntry, Hashable {
    public enum State: Sendable, Hashable {
        /// No saved widget supports this family yet.
        case empty
        case widget(WidgyConfig, BoundLayout)
        /// The saved config cannot be shown; the message says why.
        case problem(String)
    }

    public let date: Date
    public let family: WidgetFamily
    public let state: State
}

/// Shows the design the widget's configuration picked (`SelectWidgetIntent`), or else the most
/// recently saved one for the family, with its placeholders bound to the app's data. `.never`:
/// a config changes only when the app saves it, and the app then reloads the widget.
public struct WidgyProvider: AppIntentTimelineProvider {
    public typealias Entry = WidgyEntry
    public typealias Intent = SelectWidgetIntent

    let container: @Sendable () -> WidgyContainer?
    let now: @Sendable () -> Date

    public init(
        container: @escaping @Sendable () -> WidgyContainer? = { WidgyContainer.shared },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.container = container
        self.now = now
    }

    public func placeholder(in context: Context) -> WidgyEntry {
        WidgyEntry(date: now(), family: context.family, state: Self.sample)
    }

    public func snapshot(for configuration: SelectWidgetIntent, in context: Context) async -> WidgyEntry {
        entry(family: context.family, widgetID: configuration.widgetID)
    }

    public func timeline(for configuration: SelectWidgetIntent, in context: Context) async -> Timeline<WidgyEntry> {
        Timeline(entries: [entry(family: context.family, widgetID: configuration.widgetID)], policy: .never)
    }

    func entry(family: WidgetFamily, widgetID: String?) -> WidgyEntry {
        WidgyEntry(date: now(), family: family, state: state(family: family, widgetID: widgetID))
    }

    private func state(family: WidgetFamily, widgetID: String?) -> WidgyEntry.State {
        guard let container = container() else { return .empty }
        let manifest: WidgyManifest
        do {
            manifest = try container.manifest()
        } catch {
            return .problem("\(error)")
        }
        let picked = widgetID.flatMap { id in manifest.widgets.first { $0.widgetID == id } }
        if let picked, !picked.supportedFamilies.contains(family) {
            return .problem("\"\(picked.name)\" is not designed for \(family); pick another widget in its settings")
        }
        guard let item = picked ?? manifest.widget(for: family) else { return .empty }
        let file = container.configURL(id: item.widgetID)
        guard let data = try? Data(contentsOf: file) else {
            return .problem("configs/\(item.widgetID).json is missing; save \"\(item.name)\" again in Widgy")
        }
        // Validated again: the file may have been edited by hand since it was saved.
        switch ConfigValidator.validate(data) {
        case .success(let config):
            return .widget(config, BoundLayout(config.layout, data: container.data()))
        case .failure(let error):
            return .problem("configs/\(item.widgetID).json: \(error.problems.first?.description ?? "invalid")")
        }
    }

    /// A small static widget, for the placeholder and previews.
    static let sample: WidgyEntry.State = {
        let json: JSON = .object([
            "schema_version": "1.0", "widget_id": "sample", "name": "Sample",
            "supported_families": .array([.string("systemSmall"), .string("systemMedium"), .string("systemLarge")]),
            "layout": .object([
                "type": "VStack",
                "children": .array([
                    .object(["type": "SFSymbol", "name": "sun.max.fill", "color": "#FFD700"]),
                    .object(["type": "Text", "content": "72°", "font": "title"]),
                ]),
            ]),
        ])
        guard case .success(let config) = ConfigValidator.validate(json) else { return .empty }
        return .widget(config, BoundLayout(config.layout, data: .object([:])))
    }()
}

extension JSON: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
