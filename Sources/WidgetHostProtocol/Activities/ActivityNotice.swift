import Foundation

/// Something that happened to a Live Activity or a push, as `subscribe` and the harness's
/// event log carry it (type `activityRequested`, `activityUpdated`, `activityThrottled`, …).
public struct ActivityNotice: Sendable, Hashable, Codable {
    public enum Event: String, Sendable, Hashable, Codable, CaseIterable {
        case requested
        case updated
        /// A priority-10 push (or a push-to-start) over its budget was dropped.
        case throttled
        /// A push older (by its `timestamp`) than the last applied update was not applied.
        case ignored
        /// The `staleDate` passed.
        case stale
        case ended
        case dismissed
        /// A request or push was refused (too large, too many, bad token, ended activity …).
        case refused
        /// The extension drew the activity's views anew (`activity/render`); not in its history.
        case rendered
    }

    public var event: Event
    public var at: Date
    /// Missing for refusals that name no activity (a bad token, a request over the limit).
    public var activityId: String?
    public var app: String
    public var attributesType: String?
    public var source: ActivityUpdateSource
    /// The activity's state after the event.
    public var state: ActivityStateName?
    /// A sentence that says why.
    public var detail: String
    /// The push budget after the event, for pushes.
    public var budget: PushBudgetUsage?
    /// For `throttled`: when a push would next be delivered.
    public var until: Date?
    /// For `refused`: Apple's or APNs' name of the reason; for `ignored`: `outdatedTimestamp` (`attributesTooLarge`, `BadDeviceToken`, …).
    public var reason: String?

    public init(
        event: Event, at: Date, activityId: String?, app: String, attributesType: String?,
        source: ActivityUpdateSource, state: ActivityStateName?, detail: String, budget: PushBudgetUsage? = nil,
        until: Date? = nil, reason: String? = nil
    ) {
        self.event = event
        self.at = at
        self.activityId = activityId
        self.app = app
        self.attributesType = attributesType
        self.source = source
        self.state = state
        self.detail = detail
        self.budget = budget
        self.until = until
        self.reason = reason
    }
}
