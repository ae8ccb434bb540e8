import AppIntents
import Foundation

/// A saved Widgy design, as a widget's configuration picks it (seeds/001: "an AppIntent-based
/// configuration that lets users pick which saved widget to display on a particular home
/// screen slot").
public struct WidgyDesignEntity: AppEntity, Hashable {
    public let id: String
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Widget"
    public static let defaultQuery = WidgyDesignQuery()
    public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }
}

/// The saved designs, from the manifest in the App Group: what the configuration offers
/// (most recently saved first) and how a picked id is found again.
public struct WidgyDesignQuery: EntityQuery {
    let container: @Sendable () -> WidgyContainer?

    public init() { container = { WidgyContainer.shared } }

    public init(container: @escaping @Sendable () -> WidgyContainer?) { self.container = container }

    public func entities(for identifiers: [String]) async throws -> [WidgyDesignEntity] {
        try designs().filter { identifiers.contains($0.id) }
    }

    public func suggestedEntities() async throws -> [WidgyDesignEntity] { try designs() }

    /// The most recently saved design.
    public func defaultResult() async -> WidgyDesignEntity? { try? designs().first }

    private func designs() throws -> [WidgyDesignEntity] {
        guard let container = container() else { return [] }
        return try container.manifest().widgets.map { WidgyDesignEntity(id: $0.widgetID, name: $0.name) }
    }
}

/// The widget's configuration: which saved design it shows. Left unset, it shows the most
/// recently saved design that fits its family, as before configurations existed.
public struct SelectWidgetIntent: WidgetConfigurationIntent {
    public static let title: LocalizedStringResource = "Choose a widget"
    public static let description: IntentDescription? = IntentDescription("Pick which saved Widgy design this widget shows.")

    @Parameter(title: "Widget")
    public var widget: WidgyDesignEntity?

    public static var parameterSummary: some ParameterSummary {
        Summary("Show \(\.$widget)")
    }

    public init() {}

    public init(widget: WidgyDesignEntity?) { self.widget = widget }

    /// The seed's `configuration.widgetID`: the picked design's id, nil for "the most recent".
    public var widgetID: String? { widget?.id }
}
