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
            // An activity has no widget family; its views are drawn in the medium widget's environment.
            let values = EnvironmentValues(family: .systemMedium, environment)
            let context = ActivityViewContext<Attributes>(
                state: try params.state.decode(as: Attributes.ContentState.self),
                attributes: try params.attributes.decode(as: Attributes.self), activityID: params.activityId,
                isStale: params.isStale ?? false)
            let archives = render(context, values)
            func wrap(_ node: ViewNode) -> ViewArchive { ViewArchive(family: nil, environment: environment, root: node) }
            return ActivityRenderResult(
                lockScreen: wrap(archives.lockScreen), compactLeading: wrap(archives.compactLeading),
                compactTrailing: wrap(archives.compactTrailing), minimal: wrap(archives.minimal),
                expanded: archives.expanded.map { .init(position: $0.position, view: wrap($0.view)) })
        }
    }
}
