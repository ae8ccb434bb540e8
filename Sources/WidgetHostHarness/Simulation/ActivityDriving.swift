import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// Turns `[[activity]]` and `[[widget_push]]` inputs into the core's activity commands, the
/// way an app and a provider's server would: the app starts and updates, the server pushes to
/// the token the start gave.
struct ActivityDriving {
    /// `[[activity]]` index → (activity id, push token).
    private var started: [Int: (id: String, token: String?)] = [:]

    /// The catalog with each activity app's frequent-updates entitlement; an app with no
    /// widget extension gets an empty one that carries it.
    static func descriptors(_ descriptors: [ExtensionDescriptor], scenario: Scenario) -> [ExtensionDescriptor] {
        var result = descriptors
        for activity in scenario.activities where activity.frequentUpdates {
            if let index = result.firstIndex(where: { $0.app == activity.app }) {
                result[index].frequentPushUpdates = true
            } else if !result.contains(where: { $0.id == activity.app + ".activities" }) {
                result.append(
                    ExtensionDescriptor(
                        id: activity.app + ".activities", app: activity.app, displayName: activity.app, widgets: [],
                        frequentPushUpdates: true))
            }
        }
        return result
    }

    func command(for action: ScenarioInput.Action, scenario: Scenario, host: WidgetHost, at now: Date) -> ActivityCommand? {
        func content(_ activity: ScenarioActivity, number: Int) -> ActivityContentPayload {
            var state = activity.state
            if case .object(var object) = state {
                object["update"] = .integer(number)
                state = .object(object)
            }
            return ActivityContentPayload(state: state, staleDate: activity.staleAfter.map { now + $0 })
        }
        switch action {
        case .activityStart(let index):
            let activity = scenario.activities[index]
            return .request(
                ActivityRequestParams(
                    app: activity.app, attributesType: activity.attributesType, attributes: activity.attributes,
                    content: content(activity, number: 0), pushType: activity.pushes.isEmpty ? nil : "token"))
        case .activityUpdate(let index, let number):
            guard let id = started[index]?.id else { return nil }
            let activity = scenario.activities[index]
            return .update(ActivityUpdateParams(id: id, app: activity.app, content: content(activity, number: number)))
        case .activityPush(let index, let priority, let event, let number):
            guard let token = started[index]?.token else { return nil }
            let activity = scenario.activities[index]
            let body = content(activity, number: number)
            var aps: [String: JSONValue] = [
                "event": .string(event), "timestamp": .integer(Int(now.timeIntervalSince1970)), "content-state": body.state,
            ]
            if let stale = body.staleDate { aps["stale-date"] = .integer(Int(stale.timeIntervalSince1970)) }
            return .push(ActivityPushParams(token: token, priority: priority, payload: ["aps": .object(aps)]))
        case .activityEnd(let index):
            guard let id = started[index]?.id else { return nil }
            let activity = scenario.activities[index]
            var policy = activity.dismissalPolicy ?? .default
            if case .after = policy { policy = .after(now + (activity.dismissAfter ?? 0)) }
            return .end(ActivityEndParams(id: id, app: activity.app, dismissalPolicy: policy))
        case .widgetPush(let kind):
            let token = host.pushTokens(app: nil).widgets.first { $0.kind == kind }?.token
            return .widgetPush(WidgetPushParams(token: token ?? "no-widget-of-kind-\(kind)"))
        case .reload, .view, .tap, .configure, .device:
            return nil
        }
    }

    mutating func record(_ reply: HostReply?, for action: ScenarioInput.Action) {
        guard case .activityStart(let index) = action, case .activity(.activity(let info))? = reply else { return }
        started[index] = (info.id, info.pushToken)
    }
}

