import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// The Live Activity and push methods (`activity/…`, `push/…`). Any peer with socket access
/// may call them; `control.app_uids` pins the app an `activity/request` claims, as it does
/// for reloads.
extension ControlDispatcher {
    func dispatchActivity(_ method: ControlMethod, params: JSONValue?, peer: ControlPeer?) throws -> Outcome {
        let name = method.rawValue
        switch method {
        case .activityRequest:
            let params = try decode(ActivityRequestParams.self, from: params, method: name)
            if let error = appClaimError(params.app, peer: peer) { return .error(error) }
            return reply(runtime.apply(.activity(.request(params))))
        case .activityUpdate:
            let params = try decode(ActivityUpdateParams.self, from: params, method: name)
            if let error = appClaimError(params.app, peer: peer) { return .error(error) }
            return reply(runtime.apply(.activity(.update(params))))
        case .activityEnd:
            let params = try decode(ActivityEndParams.self, from: params, method: name)
            if let error = appClaimError(params.app, peer: peer) { return .error(error) }
            return reply(runtime.apply(.activity(.end(params))))
        case .activityList:
            let params = try decodeOptional(ActivityListParams.self, from: params, method: name)
            let now = runtime.now
            return .result(
                try JSONValue(
                    encoding: ActivityListResult(
                        now: now, activities: runtime.host.activityList(app: params?.app, all: params?.all == true, at: now),
                        enabled: runtime.configuration.activities.enabled,
                        frequentPushUpdates: params?.app.map { runtime.host.frequentPushUpdates(app: $0) })))
        case .activityGet:
            let params = try decode(ActivityIDParams.self, from: params, method: name)
            switch runtime.host.activityDetail(params.id, at: runtime.now) {
            case .success(let detail): return .result(try JSONValue(encoding: detail))
            case .failure(let refusal): return .error(activityRefusal(refusal))
            }
        case .activityPushToStartToken:
            let params = try decode(PushToStartTokenParams.self, from: params, method: name)
            return .result(
                try JSONValue(
                    encoding: PushTokenResult(
                        token: PushTokens.pushToStart(app: params.app, attributesType: params.attributesType))))
        case .pushActivity:
            let params = try decode(ActivityPushParams.self, from: params, method: name)
            return reply(runtime.apply(.activity(.push(params))))
        case .pushWidget:
            let params = try decode(WidgetPushParams.self, from: params, method: name)
            return reply(runtime.apply(.activity(.widgetPush(params))))
        case .pushTokens:
            let params = try decodeOptional(PushTokensParams.self, from: params, method: name)
            return .result(try JSONValue(encoding: runtime.host.pushTokens(app: params?.app)))
        default:
            return .error(.methodNotFound(name, known: ControlMethod.allCases.map(\.rawValue)))
        }
    }

    func activityOutcome(_ reply: ActivityReply) -> Outcome {
        do {
            switch reply {
            case .activity(let info): return .result(try JSONValue(encoding: info))
            case .push(let result): return .result(try JSONValue(encoding: result))
            case .widgetPush(let result): return .result(try JSONValue(encoding: result))
            case .refused(let refusal): return .error(activityRefusal(refusal))
            }
        } catch {
            return .error(JSONRPCError(code: JSONRPCError.internalErrorCode, message: "Internal error: \(error)"))
        }
    }

    /// A refusal is -32000 with Apple's or APNs' name of the reason in `data.reason`.
    func activityRefusal(_ refusal: ActivityRefusal) -> JSONRPCError {
        JSONRPCError(
            code: JSONRPCError.requestRefusedCode, message: "\(refusal.reason): \(refusal.message)",
            data: .object(["reason": .string(refusal.reason)]))
    }
}
