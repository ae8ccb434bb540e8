import Foundation
import WidgetHostProtocol

/// One `[[activity]]` table: a Live Activity the app starts, updates locally, gets pushes
/// for, and ends. Times are times of day on the scenario's first day (`start = "19:00"`).
public struct ScenarioActivity: Sendable {
    public var app: String
    public var attributesType: String
    public var attributes: JSONValue
    public var state: JSONValue
    /// Seconds after the simulation starts.
    public var start: TimeInterval
    /// The app's extension has the frequent-updates entitlement.
    public var frequentUpdates: Bool
    /// Each update's staleDate is this long after it (nil: none).
    public var staleAfter: TimeInterval?
    /// Local updates from the app (never budgeted).
    public var updates: [Repeat]
    /// Pushes from the provider.
    public var pushes: [PushRepeat]
    /// When the app ends it (seconds after the simulation starts) and with which policy.
    public var end: TimeInterval?
    public var dismissalPolicy: ActivityDismissalPolicyPayload?
    /// For `.after`: this long after the end.
    public var dismissAfter: TimeInterval?
    public var line: Int

    /// `every` from `from` until `until`, seconds after the simulation starts.
    public struct Repeat: Sendable {
        public var every: TimeInterval
        public var from: TimeInterval
        public var until: TimeInterval
    }

    public struct PushRepeat: Sendable {
        public var times: Repeat
        public var priority: Int
        /// `update` or `end` (an end push is sent once, at `from`).
        public var event: String
    }
}

/// One `[[widget_push]]` table: WidgetKit pushes for a kind, `every` from `from` until `until`.
public struct ScenarioWidgetPush: Sendable {
    public var kind: String
    public var times: ScenarioActivity.Repeat
    public var line: Int
}
