import Foundation
import WidgetHostProtocol

/// What the host accepts of an extension's `activity/render` reply (docs/rules.md, "Views"):
/// the reply at most `max_timeline_bytes`, JSON of the result's shape, each presentation's
/// archive within `max_view_nodes` and `max_view_depth`, and expanded regions only at the four
/// known positions, each at most once; every colour it names (`keylineTint`,
/// `activityBackgroundTint`, `activitySystemActionForegroundColor`) a colour, and every URL
/// (`widgetURL`, the island's and the views') a URL (`ActivityURLCheck`). Anything else refuses the whole reply with a reason:
/// the archives are untrusted input, and a Lock Screen drawn half from a refused reply would
/// hide the extension's bug.
public enum ActivityViewValidation {
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// `replyTooLarge`, `malformedReply`, `viewTooLarge`, `viewTooDeep`, `badRegion`, `badColor` or `badURL`.
        public var code: String
        public var message: String
        public var description: String { "\(code): \(message)" }
    }

    /// Decodes and checks a reply's result (its JSON bytes, as the extension sent them).
    public static func validate(
        resultBytes bytes: Data, limits: ExtensionLimits
    ) -> Result<ActivityRenderResult, Refusal> {
        guard bytes.count <= limits.maxTimelineBytes else {
            return .failure(
                Refusal(
                    code: "replyTooLarge",
                    message: "the activity/render reply is \(bytes.count) bytes, over max_timeline_bytes = "
                        + "\(limits.maxTimelineBytes); simplify the activity's views"))
        }
        let result: ActivityRenderResult
        do {
            result = try WireCoding.decode(ActivityRenderResult.self, from: bytes)
        } catch {
            return .failure(
                Refusal(
                    code: "malformedReply",
                    message: "the activity/render reply is not an ActivityRenderResult (lockScreen, compactLeading, "
                        + "compactTrailing, minimal, expanded; docs/protocol.md): \(error)"))
        }
        return validate(result, limits: limits)
    }

    /// Decodes and checks a reply's result as the runner hands it over: its JSON value and the
    /// size of its reply line.
    public static func validate(
        result value: JSONValue, byteCount: Int, limits: ExtensionLimits
    ) -> Result<ActivityRenderResult, Refusal> {
        guard byteCount <= limits.maxTimelineBytes else {
            return .failure(
                Refusal(
                    code: "replyTooLarge",
                    message: "the activity/render reply is \(byteCount) bytes, over max_timeline_bytes = "
                        + "\(limits.maxTimelineBytes); simplify the activity's views"))
        }
        let result: ActivityRenderResult
        do {
            result = try value.decode(as: ActivityRenderResult.self)
        } catch {
            return .failure(
                Refusal(
                    code: "malformedReply",
                    message: "the activity/render reply is not an ActivityRenderResult (lockScreen, compactLeading, "
                        + "compactTrailing, minimal, expanded; docs/protocol.md): \(error)"))
        }
        return validate(result, limits: limits)
    }

    /// Checks a decoded result; returns it with every `rejected` mark cleared (only the host sets it).
    public static func validate(
        _ result: ActivityRenderResult, limits: ExtensionLimits
    ) -> Result<ActivityRenderResult, Refusal> {
        var seen: Set<String> = []
        for region in result.expanded {
            guard ActivityRenderResult.regionPositions.contains(region.position) else {
                return .failure(
                    Refusal(
                        code: "badRegion",
                        message: "an expanded Dynamic Island region has the position \"\(region.position)\"; "
                            + "it is one of leading, trailing, center, bottom"))
            }
            guard seen.insert(region.position).inserted else {
                return .failure(
                    Refusal(code: "badRegion", message: "the expanded region \"\(region.position)\" appears twice"))
            }
        }
        for (name, archive) in result.presentations {
            let shape = ViewTreeMeasure.measure(
                archive.root, stoppingAfter: limits.maxViewNodes, depthLimit: limits.maxViewDepth)
            if shape.nodes > limits.maxViewNodes {
                return .failure(
                    Refusal(
                        code: "viewTooLarge",
                        message: "the activity's \(name) view has more than max_view_nodes = \(limits.maxViewNodes) nodes"))
            }
            if shape.depth > limits.maxViewDepth {
                return .failure(
                    Refusal(
                        code: "viewTooDeep",
                        message: "the activity's \(name) view is nested more than max_view_depth = "
                            + "\(limits.maxViewDepth) levels deep"))
            }
        }
        if let refusal = attributeRefusal(result) { return .failure(refusal) }
        var checked = result
        checked.lockScreen.rejected = nil
        checked.compactLeading.rejected = nil
        checked.compactTrailing.rejected = nil
        checked.minimal.rejected = nil
        for index in checked.expanded.indices { checked.expanded[index].view.rejected = nil }
        return .success(checked)
    }

    /// The first colour that is not one, or URL that is not one, in the result or its views.
    private static func attributeRefusal(_ result: ActivityRenderResult) -> Refusal? {
        if let tint = result.keylineTint, !tint.isDrawable {
            return Refusal(
                code: "badColor",
                message: "the Dynamic Island's keylineTint is not a colour (\(ActivityAttributeText.quoted(tint))); "
                    + "pass a Color, or nil for none")
        }
        if let url = result.widgetURL, let problem = ActivityURLCheck.problem(url) {
            return Refusal(code: "badURL", message: "the Dynamic Island's widgetURL \(problem)")
        }
        for (name, archive) in result.presentations {
            var stack = [archive.root]
            while let node = stack.popLast() {
                for modifier in node.modifiers {
                    switch modifier {
                    case .activityBackgroundTint(let color?), .activitySystemActionForegroundColor(let color?):
                        guard !color.isDrawable else { continue }
                        return Refusal(
                            code: "badColor",
                            message: "the activity's \(name) view has \(modifier.type) with something that is not a "
                                + "colour (\(ActivityAttributeText.quoted(color))); pass a Color, or nil for the system's")
                    case .widgetURL(let url):
                        guard let problem = ActivityURLCheck.problem(url) else { continue }
                        return Refusal(code: "badURL", message: "the activity's \(name) view has a widgetURL that \(problem)")
                    default: continue
                    }
                }
                if case .link(let url, _) = node.content, let problem = ActivityURLCheck.problem(url) {
                    return Refusal(code: "badURL", message: "the activity's \(name) view has a Link whose URL \(problem)")
                }
                for child in node.childNodes { stack.append(child) }
            }
        }
        return nil
    }
}
