import SwiftUI
import WidgetHostProtocol

/// One `ActivityConfiguration` of a bundle, as the extension server serves it on
/// `activity/render`: its attributes type's name and how to archive its views.
struct ActivityRenderer: Sendable {
    /// `String(describing:)` of the `ActivityAttributes` type, as ActivityKit sends it.
    let attributesType: String
    let render: @Sendable (ActivityRenderParams, ViewEnvironment) throws -> ActivityRenderResult

    /// The reply to `params`, or -32602 when the attributes or state do not decode.
    func answer(_ params: ActivityRenderParams) throws(JSONRPCError) -> ActivityRenderResult {
        do {
            return try render(params, params.environment ?? ViewEnvironment())
        } catch {
            throw .invalidParams("the attributes or state do not decode as \(attributesType): \(error)")
        }
    }
}

extension ActivityConfiguration {
    var renderer: ActivityRenderer {
        let render = self.render
        return ActivityRenderer(attributesType: String(describing: Attributes.self)) { params, environment in
            // An activity has no widget family: each presentation has its own environment.
            let context = ActivityViewContext<Attributes>(
                state: try params.state.decode(as: Attributes.ContentState.self),
                attributes: try params.attributes.decode(as: Attributes.self), activityID: params.activityId,
                isStale: params.isStale ?? false)
            let archives = render(context) { EnvironmentValues(activity: $0, environment) }
            func wrap(_ node: ViewNode, _ presentation: ActivityPresentation) -> ViewArchive {
                ViewArchive(family: nil, environment: environment.drawing(presentation), root: node)
            }
            return ActivityRenderResult(
                lockScreen: wrap(archives.lockScreen, .lockScreen),
                compactLeading: wrap(archives.compactLeading, .compactLeading),
                compactTrailing: wrap(archives.compactTrailing, .compactTrailing),
                minimal: wrap(archives.minimal, .minimal),
                expanded: archives.expanded.map { region in
                    let presentation = ActivityPresentation(rawValue: "expanded.\(region.position)") ?? .expandedBottom
                    return .init(position: region.position, view: wrap(region.view, presentation))
                },
                keylineTint: archives.keylineTint, widgetURL: archives.widgetURL)
        }
    }
}
