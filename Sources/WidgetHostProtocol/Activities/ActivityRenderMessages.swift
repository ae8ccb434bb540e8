import Foundation

/// `activity/render` (extension channel, protocol version 3): the host asks the extension
/// for an activity's views, the Lock Screen view and each Dynamic Island presentation.
public struct ActivityRenderParams: Sendable, Hashable, Codable {
    public var activityId: String
    /// The `ActivityAttributes` type's name, as the app's `Activity.request` sent it.
    public var attributesType: String
    public var attributes: JSONValue
    /// The content state (`ContentState`) to draw.
    public var state: JSONValue
    /// Past the content's `staleDate` (`context.isStale`); absent: false.
    public var isStale: Bool?
    /// The environment to render in, as in timeline requests; absent: the defaults.
    public var environment: ViewEnvironment?

    public init(
        activityId: String, attributesType: String, attributes: JSONValue, state: JSONValue, isStale: Bool? = nil,
        environment: ViewEnvironment? = nil
    ) {
        self.activityId = activityId
        self.attributesType = attributesType
        self.attributes = attributes
        self.state = state
        self.isStale = isStale
        self.environment = environment
    }
}

/// What `activity/render` answers: one view archive per presentation.
public struct ActivityRenderResult: Sendable, Hashable, Codable {
    /// One region of the expanded Dynamic Island.
    public struct Region: Sendable, Hashable, Codable {
        /// `leading`, `trailing`, `center` or `bottom`.
        public var position: String
        public var view: ViewArchive
        public init(position: String, view: ViewArchive) {
            self.position = position
            self.view = view
        }
    }

    /// The positions an expanded region may have.
    public static let regionPositions = ["leading", "trailing", "center", "bottom"]

    public var lockScreen: ViewArchive
    public var compactLeading: ViewArchive
    public var compactTrailing: ViewArchive
    public var minimal: ViewArchive
    public var expanded: [Region]
    /// `DynamicIsland.keylineTint(_:)`: the tint of the island's border around this activity;
    /// absent: none.
    public var keylineTint: ArchiveColor?
    /// `DynamicIsland.widgetURL(_:)`: the URL a tap on any of the activity's views opens in
    /// its app, unless the view has its own (`widgetURL` modifier, `Link`); absent: none.
    public var widgetURL: String?

    public init(
        lockScreen: ViewArchive, compactLeading: ViewArchive, compactTrailing: ViewArchive, minimal: ViewArchive,
        expanded: [Region], keylineTint: ArchiveColor? = nil, widgetURL: String? = nil
    ) {
        self.lockScreen = lockScreen
        self.compactLeading = compactLeading
        self.compactTrailing = compactTrailing
        self.minimal = minimal
        self.expanded = expanded
        self.keylineTint = keylineTint
        self.widgetURL = widgetURL
    }

    /// Each presentation's archive with its name (`lockScreen`, `compactLeading`, …, `expanded.bottom`).
    public var presentations: [(name: String, view: ViewArchive)] {
        [("lockScreen", lockScreen), ("compactLeading", compactLeading), ("compactTrailing", compactTrailing),
         ("minimal", minimal)] + expanded.map { ("expanded.\($0.position)", $0.view) }
    }
}
