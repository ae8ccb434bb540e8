import Foundation
import WidgetHostCore
import WidgetHostProtocol

let pizzaApp = "com.example.pizza"
let pizzaExtension = ExtensionDescriptor(
    id: "com.example.pizza.widget",
    widgets: [
        WidgetDescriptor(
            kind: "PizzaWidget", displayName: "Pizza", description: "Your order", supportedFamilies: [.systemSmall])
    ])

let pizzaAttributes: JSONValue = ["orderNumber": "12345", "pizzaType": "Pepperoni"]

func pizzaState(_ status: String = "preparing", driver: String? = nil) -> JSONValue {
    var object: [String: JSONValue] = ["status": .string(status), "estimatedDeliveryTime": "2026-02-15T00:30:00Z"]
    if let driver { object["driverName"] = .string(driver) }
    return .object(object)
}

/// A content state whose JSON, with `pizzaAttributes`, is exactly `bytes` long.
func state(totalBytes bytes: Int) -> JSONValue {
    let base = ActivityPayloadSize.bytes(attributes: pizzaAttributes, state: ["pad": ""])
    return ["pad": .string(String(repeating: "x", count: bytes - base))]
}

/// An APNs body for a Live Activity push.
func apns(
    _ event: String = "update", state: JSONValue? = nil, staleDate: Date? = nil, dismissalDate: Date? = nil,
    alert: (String, String)? = nil, attributesType: String? = nil, attributes: JSONValue? = nil,
    timestamp: Date? = t0
) -> JSONValue {
    var aps: [String: JSONValue] = ["event": .string(event)]
    if let timestamp { aps["timestamp"] = .integer(Int(timestamp.timeIntervalSince1970)) }
    if let state { aps["content-state"] = state }
    if let staleDate { aps["stale-date"] = .integer(Int(staleDate.timeIntervalSince1970)) }
    if let dismissalDate { aps["dismissal-date"] = .integer(Int(dismissalDate.timeIntervalSince1970)) }
    if let alert { aps["alert"] = ["title": .string(alert.0), "body": .string(alert.1)] }
    if let attributesType { aps["attributes-type"] = .string(attributesType) }
    if let attributes { aps["attributes"] = attributes }
    return ["aps": .object(aps)]
}

extension TestHost {
    init(activityRules configure: (inout ActivityRules) -> Void, frequentUpdates: Bool = false) {
        var configuration = HostConfiguration()
        configure(&configuration.activities)
        var pizza = pizzaExtension
        pizza.frequentPushUpdates = frequentUpdates
        self.init(configuration: configuration, extensions: [birthdayExtension, pizza])
    }

    mutating func activity(_ command: ActivityCommand) -> ActivityReply {
        guard case .activity(let reply)? = handle(.activity(command)).reply else { fatalError("no activity reply") }
        return reply
    }

    /// Starts a pizza activity and returns it; fails the test run if it is refused.
    mutating func startPizza(
        app: String = pizzaApp, state: JSONValue = pizzaState(), staleDate: Date? = nil, token: Bool = true
    ) -> ActivityInfo {
        let reply = activity(
            .request(
                ActivityRequestParams(
                    app: app, attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes,
                    content: ActivityContentPayload(state: state, staleDate: staleDate),
                    pushType: token ? "token" : nil)))
        guard case .activity(let info) = reply else { fatalError("request refused: \(reply)") }
        return info
    }

    mutating func request(state: JSONValue, app: String = pizzaApp) -> ActivityReply {
        activity(
            .request(
                ActivityRequestParams(
                    app: app, attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes,
                    content: ActivityContentPayload(state: state))))
    }

    mutating func push(_ token: String, priority: Int = 10, _ payload: JSONValue = apns(state: pizzaState("onTheWay")))
        -> ActivityReply
    {
        activity(.push(ActivityPushParams(token: token, priority: priority, payload: payload)))
    }

    func info(_ id: String) -> ActivityInfo {
        host.activityInfo(host.activities[id]!, at: now)
    }

    func activityNotices(_ event: ActivityNotice.Event) -> [ActivityNotice] {
        notices.compactMap { if case .activity(let notice) = $0, notice.event == event { notice } else { nil } }
    }
}

extension ActivityReply {
    var refusalReason: String? { if case .refused(let refusal) = self { refusal.reason } else { nil } }
    var pushResult: ActivityPushResult? { if case .push(let result) = self { result } else { nil } }
}
