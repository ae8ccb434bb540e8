import Foundation
import WidgetHostProtocol

/// What an app or a push asks of the host's Live Activities (the `activity` event).
public enum ActivityCommand: Sendable, Hashable {
    /// `Activity.request(attributes:content:pushType:)`.
    case request(ActivityRequestParams)
    /// `update(_:alertConfiguration:)` from the app: never budgeted.
    case update(ActivityUpdateParams)
    /// `end(_:dismissalPolicy:)` from the app.
    case end(ActivityEndParams)
    /// A simulated APNs push to an activity's token, or a push-to-start token.
    case push(ActivityPushParams)
    /// A simulated WidgetKit push: one budgeted reload per instance of the token's kind.
    case widgetPush(WidgetPushParams)
}

/// The answer to an `activity` event.
public enum ActivityReply: Sendable, Hashable {
    case activity(ActivityInfo)
    case push(ActivityPushResult)
    case widgetPush(WidgetPushResult)
    case refused(ActivityRefusal)
}

/// A refused activity request or push: Apple's name for the reason where ActivityKit or APNs
/// has one (`attributesTooLarge`, `targetMaximumExceeded`, `denied`, `BadDeviceToken`,
/// `PayloadTooLarge`, `Unregistered`, …), and a sentence that says what to do.
public struct ActivityRefusal: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var reason: String
    public var message: String

    public init(_ reason: String, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    // ActivityKit (`ActivityAuthorizationError`).
    static func denied() -> Self {
        Self("denied", "Live Activities are not enabled (activities.enabled = false); ActivityAuthorizationInfo().areActivitiesEnabled is false")
    }
    static func attributesTooLarge(_ bytes: Int, limit: Int) -> Self {
        Self(
            "attributesTooLarge",
            "attributes and content state are \(bytes) bytes, over the \(limit)-byte limit; keep large data (images) out of them and send names or ids instead")
    }
    static func targetMaximumExceeded(app: String, ongoing: [String], limit: Int) -> Self {
        Self(
            "targetMaximumExceeded",
            "\(app) already has \(ongoing.count) ongoing Live Activit\(ongoing.count == 1 ? "y" : "ies") (\(ongoing.joined(separator: ", "))), the most activities.max_per_app = \(limit) allows; end one first")
    }
    // The host's own.
    static func unknownActivity(_ id: String) -> Self {
        Self("unknownActivity", "no Live Activity with id \"\(id)\"; `widgethost activities` lists them")
    }
    static func notOwner(_ id: String, owner: String, caller: String) -> Self {
        Self("notOwner", "Live Activity \(id) belongs to \(owner), not \(caller)")
    }
    static func notOngoing(_ record: ActivityRecord) -> Self {
        let when = record.endedAt.map { " at " + RFC3339.format($0) } ?? ""
        return Self(
            "activityEnded",
            "Live Activity \(record.id) is \(record.state.rawValue) (ended\(when)); an ended activity takes no updates, start a new one")
    }
    static func invalid(_ message: String) -> Self { Self("invalid", message) }
}
