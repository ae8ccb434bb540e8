import Foundation

/// `activity/request`: `Activity.request(attributes:content:pushType:)` from an app.
public struct ActivityRequestParams: Sendable, Hashable, Codable {
    public var app: String
    public var attributesType: String
    public var attributes: JSONValue
    public var content: ActivityContentPayload
    /// `"token"` asks for a push token (`pushType: .token`); nil for none.
    public var pushType: String?

    public init(
        app: String, attributesType: String, attributes: JSONValue, content: ActivityContentPayload,
        pushType: String? = nil
    ) {
        self.app = app
        self.attributesType = attributesType
        self.attributes = attributes
        self.content = content
        self.pushType = pushType
    }
}

/// `activity/update`: `update(_:alertConfiguration:)` from the app (not budgeted).
public struct ActivityUpdateParams: Sendable, Hashable, Codable {
    public var id: String
    /// The calling app; when given it must own the activity.
    public var app: String?
    public var content: ActivityContentPayload
    public var alert: ActivityAlertPayload?

    public init(id: String, app: String? = nil, content: ActivityContentPayload, alert: ActivityAlertPayload? = nil) {
        self.id = id
        self.app = app
        self.content = content
        self.alert = alert
    }
}

/// `activity/end`: `end(_:dismissalPolicy:)` from the app.
public struct ActivityEndParams: Sendable, Hashable, Codable {
    public var id: String
    public var app: String?
    /// The final content; nil keeps the last.
    public var content: ActivityContentPayload?
    /// nil is `.default`.
    public var dismissalPolicy: ActivityDismissalPolicyPayload?

    public init(
        id: String, app: String? = nil, content: ActivityContentPayload? = nil,
        dismissalPolicy: ActivityDismissalPolicyPayload? = nil
    ) {
        self.id = id
        self.app = app
        self.content = content
        self.dismissalPolicy = dismissalPolicy
    }
}

/// `activity/list`: the activities of one app, or all.
public struct ActivityListParams: Sendable, Hashable, Codable {
    public var app: String?
    /// Include dismissed activities (kept for a day for their story).
    public var all: Bool?
    public init(app: String? = nil, all: Bool? = nil) {
        self.app = app
        self.all = all
    }
}

public struct ActivityListResult: Sendable, Hashable, Codable {
    public var now: Date
    public var activities: [ActivityInfo]
    /// `activities.enabled` (`ActivityAuthorizationInfo().areActivitiesEnabled`).
    public var enabled: Bool?
    /// Whether the app asked about has the frequent-updates entitlement.
    public var frequentPushUpdates: Bool?
    public init(now: Date, activities: [ActivityInfo], enabled: Bool? = nil, frequentPushUpdates: Bool? = nil) {
        self.now = now
        self.activities = activities
        self.enabled = enabled
        self.frequentPushUpdates = frequentPushUpdates
    }
}

/// `activity/get`.
public struct ActivityIDParams: Sendable, Hashable, Codable {
    public var id: String
    public init(id: String) { self.id = id }
}

/// `activity/get`'s result: the activity and its whole story.
public struct ActivityDetailResult: Sendable, Hashable, Codable {
    public var now: Date
    public var activity: ActivityInfo
    public var history: [ActivityHistoryItem]
    /// Its views as the extension last drew them (`activity/render`); absent before the first
    /// answer, when its extension declares no `ActivityConfiguration` for it, and once dismissed.
    public var views: ActivityViews?
    public init(now: Date, activity: ActivityInfo, history: [ActivityHistoryItem], views: ActivityViews? = nil) {
        self.now = now
        self.activity = activity
        self.history = history
        self.views = views
    }
}

/// `activity/pushToStartToken`: `Activity<A>.pushToStartToken` for one app and attributes type.
public struct PushToStartTokenParams: Sendable, Hashable, Codable {
    public var app: String
    public var attributesType: String
    public init(app: String, attributesType: String) {
        self.app = app
        self.attributesType = attributesType
    }
}

public struct PushTokenResult: Sendable, Hashable, Codable {
    public var token: String
    public init(token: String) { self.token = token }
}

/// `push/activity`: plays APNs. `payload` is the JSON body a provider sends to APNs
/// (`{"aps":{"timestamp":…,"event":"update","content-state":{…},…}}`); `priority` is the
/// `apns-priority` header (5 or 10).
public struct ActivityPushParams: Sendable, Hashable, Codable {
    public var token: String
    public var priority: Int
    public var payload: JSONValue
    /// The size of the body as the provider sent it; nil: the host measures its own encoding.
    public var payloadBytes: Int?

    public init(token: String, priority: Int, payload: JSONValue, payloadBytes: Int? = nil) {
        self.token = token
        self.priority = priority
        self.payload = payload
        self.payloadBytes = payloadBytes
    }
}

/// What happened to one push: as widget reloads are answered, `delivered`,
/// `throttled until T (reason)` or `ignored (reason)` — what a device never says.
public enum PushDisposition: String, Sendable, Hashable, Codable {
    case delivered
    case throttled
    /// Delivered, but not applied: ActivityKit ignores an update or end whose `timestamp` is
    /// older than the last one applied (Apple); the content stays as it was.
    case ignored
}

/// Why a push was throttled or ignored.
public enum PushThrottleReason: String, Sendable, Hashable, Codable {
    /// The activity's priority-10 pushes in the last hour reached its budget.
    case pushBudgetExhausted
    /// The app's push-to-start pushes in the last hour reached their budget.
    case pushToStartBudgetExhausted
    /// The push's `aps.timestamp` is older than the activity's last applied update's.
    case outdatedTimestamp
}

public struct ActivityPushResult: Sendable, Hashable, Codable {
    public var outcome: PushDisposition
    /// `update`, `end` or `start`.
    public var event: String
    /// The activity the push reached (for `start`, the one it started).
    public var activityId: String?
    /// When a push at this priority would next be delivered.
    public var until: Date?
    public var reason: PushThrottleReason?
    /// Whether the push counted (priority 10, or push-to-start).
    public var budgeted: Bool
    /// The budget right after the push (a delivered budgeted push is counted).
    public var budget: PushBudgetUsage?

    public init(
        outcome: PushDisposition, event: String, activityId: String?, until: Date? = nil,
        reason: PushThrottleReason? = nil, budgeted: Bool, budget: PushBudgetUsage? = nil
    ) {
        self.outcome = outcome
        self.event = event
        self.activityId = activityId
        self.until = until
        self.reason = reason
        self.budgeted = budgeted
        self.budget = budget
    }
}

/// `push/widget`: a WidgetKit push (`WidgetPushHandler`) for the kind the token names.
/// `payload` is the APNs body (`{"aps":{"content-changed":true}}`, sent with
/// `apns-push-type: widgets`); nil sends exactly that.
public struct WidgetPushParams: Sendable, Hashable, Codable {
    public var token: String
    public var payload: JSONValue?
    /// The size of the body as the provider sent it; nil: the host measures its own encoding.
    public var payloadBytes: Int?

    public init(token: String, payload: JSONValue? = nil, payloadBytes: Int? = nil) {
        self.token = token
        self.payload = payload
        self.payloadBytes = payloadBytes
    }
}

public struct WidgetPushResult: Sendable, Hashable, Codable {
    public var kind: String
    public var `extension`: String
    /// One budgeted reload per instance of the kind.
    public var reload: ReloadResult
    public init(kind: String, extension: String, reload: ReloadResult) {
        self.kind = kind
        self.extension = `extension`
        self.reload = reload
    }
}

/// `push/tokens`: every push token the host has handed out.
public struct PushTokensParams: Sendable, Hashable, Codable {
    public var app: String?
    public init(app: String? = nil) { self.app = app }
}

public struct PushTokensResult: Sendable, Hashable, Codable {
    public struct ActivityToken: Sendable, Hashable, Codable {
        public var activityId: String
        public var app: String
        public var attributesType: String
        public var token: String
        public init(activityId: String, app: String, attributesType: String, token: String) {
            self.activityId = activityId
            self.app = app
            self.attributesType = attributesType
            self.token = token
        }
    }
    public struct PushToStartToken: Sendable, Hashable, Codable {
        public var app: String
        public var attributesType: String
        public var token: String
        public init(app: String, attributesType: String, token: String) {
            self.app = app
            self.attributesType = attributesType
            self.token = token
        }
    }
    public struct WidgetToken: Sendable, Hashable, Codable {
        public var kind: String
        public var `extension`: String
        public var app: String
        public var token: String
        public init(kind: String, extension: String, app: String, token: String) {
            self.kind = kind
            self.extension = `extension`
            self.app = app
            self.token = token
        }
    }

    public var activities: [ActivityToken]
    public var pushToStart: [PushToStartToken]
    public var widgets: [WidgetToken]

    public init(activities: [ActivityToken], pushToStart: [PushToStartToken], widgets: [WidgetToken]) {
        self.activities = activities
        self.pushToStart = pushToStart
        self.widgets = widgets
    }
}
