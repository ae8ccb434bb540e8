import Foundation
import WidgetHostProtocol

/// A WidgetKit push as APNs carries it: `apns-push-type: widgets` and the body
/// `{"aps":{"content-changed":true}}`, at most 4 KB (APNs' limit for every push type but
/// VoIP). A bad one is refused with APNs' reason (`MissingDeviceToken`, `PayloadTooLarge`,
/// `PayloadEmpty`) or the host's (`BadPayload`) for a body APNs takes but WidgetKit ignores.
public enum WidgetPushPayload {
    public static let maxBytes = 4096
    public static let standard: JSONValue = ["aps": ["content-changed": true]]

    public static func refusal(_ params: WidgetPushParams) -> ActivityRefusal? {
        guard !params.token.isEmpty else {
            return ActivityRefusal("MissingDeviceToken", "the widget push names no token; `widgethost push tokens` lists them")
        }
        let payload = params.payload ?? standard
        let bytes = params.payloadBytes ?? ActivityPayloadSize.encodedCount(payload)
        guard bytes <= maxBytes else {
            return ActivityRefusal("PayloadTooLarge", "the payload is \(bytes) bytes; APNs takes at most \(maxBytes) for a WidgetKit push")
        }
        guard case .object(let body) = payload, !body.isEmpty else {
            return ActivityRefusal("PayloadEmpty", "the payload is empty or not a JSON object; send {\"aps\":{\"content-changed\":true}}")
        }
        guard case .object(let aps)? = body["aps"] else {
            return ActivityRefusal("BadPayload", "the payload has no \"aps\" object; send {\"aps\":{\"content-changed\":true}}")
        }
        guard aps["content-changed"] == .bool(true) else {
            return ActivityRefusal(
                "BadPayload",
                "aps.content-changed is \(aps["content-changed"].map(\.shapeDescription) ?? "missing"); a WidgetKit push carries \"content-changed\": true")
        }
        return nil
    }
}
