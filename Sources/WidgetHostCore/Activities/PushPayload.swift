import Foundation
import WidgetHostProtocol

/// A Live Activity push as APNs carries it, read from its JSON body:
/// `{"aps":{"timestamp":…,"event":"update","content-state":{…},"stale-date":…,
/// "dismissal-date":…,"relevance-score":…,"alert":{"title":…,"body":…,"sound":…},
/// "attributes-type":…,"attributes":{…}}}`. Dates are seconds since 1970, as APNs has them.
public struct ActivityPush: Sendable, Hashable {
    public enum Event: String, Sendable, Hashable, CaseIterable {
        case update
        case end
        case start
    }

    public var event: Event
    public var contentState: JSONValue?
    public var staleDate: Date?
    public var dismissalDate: Date?
    public var relevanceScore: Double?
    public var alert: ActivityAlertPayload?
    public var attributesType: String?
    public var attributes: JSONValue?
    public var timestamp: Date?

    /// Reads and checks a push the way APNs and the device would, refusing with APNs' reason
    /// (`BadPriority`, `PayloadEmpty`, `PayloadTooLarge`) or the host's (`BadPayload`,
    /// `MissingContentState`) for what APNs would accept but the device could not use.
    public static func parse(_ params: ActivityPushParams, maxBytes: Int) -> Result<ActivityPush, ActivityRefusal> {
        guard params.priority == 5 || params.priority == 10 else {
            return .failure(ActivityRefusal("BadPriority", "apns-priority is \(params.priority); a Live Activity push has priority 5 or 10"))
        }
        let bytes = params.payloadBytes ?? ActivityPayloadSize.encodedCount(params.payload)
        guard bytes <= maxBytes else {
            return .failure(
                ActivityRefusal("PayloadTooLarge", "the payload is \(bytes) bytes; APNs takes at most \(maxBytes) for a Live Activity"))
        }
        guard case .object(let body) = params.payload, !body.isEmpty else {
            return .failure(ActivityRefusal("PayloadEmpty", "the payload is empty or not a JSON object; send {\"aps\":{…}}"))
        }
        guard case .object(let aps)? = body["aps"] else {
            return .failure(ActivityRefusal("BadPayload", "the payload has no \"aps\" object; put the event and content-state in it"))
        }
        func bad(_ text: String) -> Result<ActivityPush, ActivityRefusal> { .failure(ActivityRefusal("BadPayload", text)) }

        guard let eventValue = aps["event"] else { return bad("aps.event is missing; use \"update\", \"end\" or \"start\"") }
        guard case .string(let eventName) = eventValue else {
            return bad("aps.event is \(eventValue.shapeDescription), not a string; use \"update\", \"end\" or \"start\"")
        }
        guard let event = Event(rawValue: eventName) else {
            return bad("aps.event is \"\(eventName)\"; use \"update\", \"end\" or \"start\"")
        }
        var push = ActivityPush(event: event)
        for (key, path) in [("stale-date", \ActivityPush.staleDate), ("dismissal-date", \.dismissalDate), ("timestamp", \.timestamp)] {
            guard let value = aps[key] else { continue }
            guard let seconds = value.numberValue else { return bad("aps.\(key) is not a number of seconds since 1970") }
            push[keyPath: path] = Date(timeIntervalSince1970: seconds)
        }
        if let value = aps["relevance-score"] {
            guard let score = value.numberValue else { return bad("aps.relevance-score is not a number") }
            push.relevanceScore = score
        }
        if let value = aps["content-state"] {
            guard case .object = value else {
                return bad("aps.content-state is \(value.shapeDescription), not an object; it is the ContentState as JSON")
            }
            push.contentState = value
        }
        if let value = aps["alert"] {
            guard case .object(let alert) = value, let title = alert["title"]?.stringValue,
                let body = alert["body"]?.stringValue
            else { return bad("aps.alert needs \"title\" and \"body\" strings") }
            push.alert = ActivityAlertPayload(title: title, body: body, sound: aps["sound"]?.stringValue ?? alert["sound"]?.stringValue)
        }
        if event == .update || event == .start, push.contentState == nil {
            return .failure(
                ActivityRefusal("MissingContentState", "an \(event.rawValue) push needs aps.content-state (the device would drop it)"))
        }
        if event == .start {
            guard case .string(let type)? = aps["attributes-type"], !type.isEmpty else {
                return bad("a start push needs aps.attributes-type, the ActivityAttributes type's name")
            }
            guard let attributes = aps["attributes"] else { return bad("a start push needs aps.attributes, the ActivityAttributes as JSON") }
            guard case .object = attributes else {
                return bad("aps.attributes is \(attributes.shapeDescription), not an object; it is the ActivityAttributes as JSON")
            }
            push.attributesType = type
            push.attributes = aps["attributes"]
        }
        return .success(push)
    }

    init(event: Event) { self.event = event }
}

extension JSONValue {
    var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
