import Foundation
import WidgetHostProtocol

/// What the host accepts of an extension's `activity/render` reply (docs/rules.md, "Views"):
/// the reply at most `max_timeline_bytes`, JSON of the result's shape, each presentation's
/// archive within `max_view_nodes` and `max_view_depth`, and expanded regions only at the four
/// known positions, each at most once. Anything else refuses the whole reply with a reason:
/// the archives are untrusted input, and a Lock Screen drawn half from a refused reply would
/// hide the extension's bug.
public enum ActivityViewValidation {
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// `replyTooLarge`, `malformedReply`, `viewTooLarge`, `viewTooDeep` or `badRegion`.
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
        var checked = result
        checked.lockScreen.rejected = nil
        checked.compactLeading.rejected = nil
        checked.compactTrailing.rejected = nil
        checked.minimal.rejected = nil
        for index in checked.expanded.indices { checked.expanded[index].view.rejected = nil }
        return .success(checked)
    }
}
