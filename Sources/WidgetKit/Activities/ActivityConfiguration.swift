import ActivityKit
import Foundation
import SwiftUI
import WidgetHostProtocol

/// WidgetKit's `ActivityConfiguration`: a Live Activity's Lock Screen view and its Dynamic
/// Island presentations, for one `ActivityAttributes` type.
///
/// In a `WidgetBundle` it declares no widget kind. The SDK can archive its views for an
/// activity's attributes and state (`archives(attributes:state:…)`), the archives the host
/// draws on its Lock Screen; the extension server answers `activity/render` with them.
public struct ActivityConfiguration<Attributes: ActivityAttributes>: PrimitiveWidgetConfiguration {
    /// Archives each presentation in the environment the second argument gives for it.
    let render: @Sendable (ActivityViewContext<Attributes>, (ActivityPresentation) -> EnvironmentValues) -> ActivityArchives

    var definitions: [WidgetDefinition] { [] }
    var activityRenderers: [ActivityRenderer] { [renderer] }

    public init<Content: View>(
        for attributesType: Attributes.Type,
        @ViewBuilder content: @escaping @Sendable (ActivityViewContext<Attributes>) -> Content,
        dynamicIsland: @escaping @Sendable (ActivityViewContext<Attributes>) -> DynamicIsland
    ) {
        render = { context, environment in
            let island = dynamicIsland(context)
            func archive(_ view: AnyView, _ presentation: ActivityPresentation) -> ViewNode {
                _ViewArchiver.archive(view, environment: environment(presentation))
            }
            return ActivityArchives(
                lockScreen: _ViewArchiver.archive(content(context), environment: environment(.lockScreen)),
                compactLeading: archive(island.compactLeading, .compactLeading),
                compactTrailing: archive(island.compactTrailing, .compactTrailing),
                minimal: archive(island.minimal, .minimal),
                expanded: island.expanded.map { region in
                    let presentation = ActivityPresentation(rawValue: "expanded.\(region.position.name)") ?? .expandedBottom
                    return ActivityArchives.Region(position: region.position.name, view: archive(region.view, presentation))
                },
                keylineTint: island.keylineTint, widgetURL: island.url)
        }
    }

    /// The views of an activity whose attributes and content state arrive as JSON (as the
    /// host has them): the Lock Screen view and each Dynamic Island presentation, archived.
    public func archives(
        attributes: JSONValue, state: JSONValue, activityID: String, isStale: Bool = false,
        environment: EnvironmentValues = EnvironmentValues()
    ) throws -> ActivityArchives {
        let context = ActivityViewContext<Attributes>(
            state: try state.decode(as: Attributes.ContentState.self),
            attributes: try attributes.decode(as: Attributes.self), activityID: activityID, isStale: isStale)
        return render(context) { _ in environment }
    }
}

/// The archived views of one activity.
public struct ActivityArchives: Sendable, Hashable {
    public struct Region: Sendable, Hashable {
        /// `leading`, `trailing`, `center` or `bottom`.
        public var position: String
        public var view: ViewNode
    }

    public var lockScreen: ViewNode
    public var compactLeading: ViewNode
    public var compactTrailing: ViewNode
    public var minimal: ViewNode
    public var expanded: [Region]
    /// `DynamicIsland.keylineTint(_:)`.
    public var keylineTint: ArchiveColor?
    /// `DynamicIsland.widgetURL(_:)`, as `URL.absoluteString`.
    public var widgetURL: String?
}

/// `ActivityViewContext`: what an activity's views are built from.
public struct ActivityViewContext<Attributes: ActivityAttributes> {
    public let state: Attributes.ContentState
    public let attributes: Attributes
    public let activityID: String
    public let isStale: Bool
}

/// `DynamicIsland`: the expanded regions and the compact and minimal presentations.
public struct DynamicIsland {
    let expanded: [DynamicIslandExpandedRegionBox]
    let compactLeading: AnyView
    let compactTrailing: AnyView
    let minimal: AnyView
    var keylineTint: ArchiveColor?
    var url: String?

    public init<CompactLeading: View, CompactTrailing: View, Minimal: View>(
        @DynamicIslandExpandedContentBuilder expanded: () -> [DynamicIslandExpandedRegionBox],
        @ViewBuilder compactLeading: () -> CompactLeading,
        @ViewBuilder compactTrailing: () -> CompactTrailing,
        @ViewBuilder minimal: () -> Minimal
    ) {
        self.expanded = expanded()
        self.compactLeading = AnyView(compactLeading())
        self.compactTrailing = AnyView(compactTrailing())
        self.minimal = AnyView(minimal())
    }

    /// A subtle tint on the island's border around the activity's views (the host draws it
    /// around the compact, minimal and expanded presentations).
    public func keylineTint(_ color: Color?) -> DynamicIsland {
        var copy = self
        copy.keylineTint = color?._archivedColor
        return copy
    }

    /// The URL a tap on any of the activity's views opens in the app, unless the view has its
    /// own (`widgetURL(_:)` on a view, or a `Link`).
    public func widgetURL(_ url: URL?) -> DynamicIsland {
        var copy = self
        copy.url = url?.absoluteString
        return copy
    }
}

/// `DynamicIslandExpandedRegionPosition`.
public struct DynamicIslandExpandedRegionPosition: Sendable, Hashable {
    let name: String
    public static let leading = DynamicIslandExpandedRegionPosition(name: "leading")
    public static let trailing = DynamicIslandExpandedRegionPosition(name: "trailing")
    public static let center = DynamicIslandExpandedRegionPosition(name: "center")
    public static let bottom = DynamicIslandExpandedRegionPosition(name: "bottom")
}

/// `DynamicIslandExpandedRegion`: one region of the expanded presentation.
public struct DynamicIslandExpandedRegion<Content: View> {
    let position: DynamicIslandExpandedRegionPosition
    let content: Content

    public init(_ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> Content) {
        self.position = position
        self.content = content()
    }
}

/// A region with its view type erased.
public struct DynamicIslandExpandedRegionBox {
    let position: DynamicIslandExpandedRegionPosition
    let view: AnyView
}

@resultBuilder
public enum DynamicIslandExpandedContentBuilder {
    public static func buildExpression<Content: View>(_ region: DynamicIslandExpandedRegion<Content>)
        -> [DynamicIslandExpandedRegionBox]
    {
        [DynamicIslandExpandedRegionBox(position: region.position, view: AnyView(region.content))]
    }

    public static func buildBlock(_ regions: [DynamicIslandExpandedRegionBox]...) -> [DynamicIslandExpandedRegionBox] {
        regions.flatMap { $0 }
    }

    public static func buildOptional(_ regions: [DynamicIslandExpandedRegionBox]?) -> [DynamicIslandExpandedRegionBox] {
        regions ?? []
    }

    public static func buildEither(first: [DynamicIslandExpandedRegionBox]) -> [DynamicIslandExpandedRegionBox] { first }
    public static func buildEither(second: [DynamicIslandExpandedRegionBox]) -> [DynamicIslandExpandedRegionBox] { second }
}

extension View {
    /// The tint of a Live Activity's Lock Screen background; nil: the system's material.
    public func activityBackgroundTint(_ color: Color?) -> some View {
        _modifier(.activityBackgroundTint(color?._archivedColor))
    }

    /// The text colour of the system's action button beside a Live Activity on the Lock
    /// Screen; nil: the system's.
    public func activitySystemActionForegroundColor(_ color: Color?) -> some View {
        _modifier(.activitySystemActionForegroundColor(color?._archivedColor))
    }
}
