import Foundation

/// Where a Live Activity's view is drawn: the Lock Screen, or one presentation of the Dynamic
/// Island (WidgetKit's `DynamicIslandMode` and `DynamicIslandExpandedRegionPosition`). The raw
/// value is the name `ActivityRenderResult.presentations` gives it.
///
/// Sizes are in points on the reference iPhone (393 × 852 pt, as `WidgetFamily.displaySize`),
/// from the Human Interface Guidelines' "Live Activities › Specifications": compact leading and
/// trailing 52.33 × 36.67, minimal 36.67–45 × 36.67, expanded 371 × 84–160, Lock Screen
/// 371 × 84–160. Where Apple gives a range the host takes its largest height and its smallest
/// width; Apple gives no size for the expanded regions, so theirs are this project's (docs/rules.md,
/// "Live Activity views").
public enum ActivityPresentation: String, Sendable, Hashable, Codable, CaseIterable {
    case lockScreen
    case compactLeading
    case compactTrailing
    case minimal
    case expandedLeading = "expanded.leading"
    case expandedTrailing = "expanded.trailing"
    case expandedCenter = "expanded.center"
    case expandedBottom = "expanded.bottom"

    /// The space the view is drawn in, in points.
    public var displaySize: DisplaySize {
        switch self {
        case .lockScreen: DisplaySize(width: 371, height: 160)
        case .compactLeading, .compactTrailing: DisplaySize(width: 52.33, height: 36.67)
        case .minimal: DisplaySize(width: 36.67, height: 36.67)
        // Ours: the expanded island (371 × 160) split into a top row of leading, center and
        // trailing (70 pt high; the sides 92 pt wide, the center what is left) and the bottom.
        case .expandedLeading, .expandedTrailing: DisplaySize(width: 92, height: 70)
        case .expandedCenter: DisplaySize(width: 187, height: 70)
        case .expandedBottom: DisplaySize(width: 371, height: 90)
        }
    }

    /// The system's margins around the view, in points: 14 on the Lock Screen (Apple's
    /// notification margin, which Live Activities share); none in the island, whose shape
    /// already keeps content off its edges (ours).
    public var contentMargin: Double {
        self == .lockScreen ? 14 : 0
    }

    /// In the Dynamic Island (every presentation but the Lock Screen's).
    public var isDynamicIsland: Bool { self != .lockScreen }

    /// The expanded region's position (`leading`, `trailing`, `center`, `bottom`), for the expanded presentations.
    public var regionPosition: String? {
        switch self {
        case .expandedLeading: "leading"
        case .expandedTrailing: "trailing"
        case .expandedCenter: "center"
        case .expandedBottom: "bottom"
        default: nil
        }
    }

    /// A name people read: "Lock Screen", "compact leading", "expanded bottom".
    public var title: String {
        switch self {
        case .lockScreen: "Lock Screen"
        case .compactLeading: "compact leading"
        case .compactTrailing: "compact trailing"
        case .minimal: "minimal"
        case .expandedLeading: "expanded leading"
        case .expandedTrailing: "expanded trailing"
        case .expandedCenter: "expanded center"
        case .expandedBottom: "expanded bottom"
        }
    }

    /// The Dynamic Island's own shape (HIG): 230 pt wide in the compact and minimal
    /// presentations, 371 pt expanded, with a 44 pt corner radius.
    public static let islandCompactWidth = 230.0
    public static let islandExpandedWidth = 371.0
    public static let islandCornerRadius = 44.0
}

extension ActivityRenderResult {
    /// The archive drawn in `presentation`; nil for an expanded region the extension left empty.
    public func view(for presentation: ActivityPresentation) -> ViewArchive? {
        switch presentation {
        case .lockScreen: lockScreen
        case .compactLeading: compactLeading
        case .compactTrailing: compactTrailing
        case .minimal: minimal
        default: expanded.first { $0.position == presentation.regionPosition }?.view
        }
    }
}

/// A Live Activity's views as the host keeps them: the extension's last accepted
/// `activity/render` answer and what it was drawn for.
public struct ActivityViews: Sendable, Hashable, Codable {
    /// When the host accepted them.
    public var renderedAt: Date
    /// The activity's `updatedAt` whose content they show.
    public var contentUpdatedAt: Date
    /// Drawn with `context.isStale` true.
    public var isStale: Bool
    public var result: ActivityRenderResult

    public init(renderedAt: Date, contentUpdatedAt: Date, isStale: Bool, result: ActivityRenderResult) {
        self.renderedAt = renderedAt
        self.contentUpdatedAt = contentUpdatedAt
        self.isStale = isStale
        self.result = result
    }
}
