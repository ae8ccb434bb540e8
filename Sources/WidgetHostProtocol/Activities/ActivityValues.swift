import Foundation

/// A Live Activity's state, with ActivityKit's names (`ActivityState`).
public enum ActivityStateName: String, Sendable, Hashable, Codable, CaseIterable {
    /// Shown and updatable.
    case active
    /// Its `staleDate` passed; still shown, still updatable (an update makes it active again).
    case stale
    /// Ended by the app, a push or the host's 8-hour limit; still on the Lock Screen until dismissed.
    case ended
    /// Gone from the Lock Screen.
    case dismissed

    /// Active and stale activities are ongoing: they count towards the per-app limit and accept updates.
    public var isOngoing: Bool { self == .active || self == .stale }
}

/// `ActivityContent`: the dynamic part (`ContentState` as JSON), when it goes stale and how
/// relevant it is among the app's activities.
public struct ActivityContentPayload: Sendable, Hashable, Codable {
    public var state: JSONValue
    public var staleDate: Date?
    public var relevanceScore: Double?

    public init(state: JSONValue, staleDate: Date? = nil, relevanceScore: Double? = nil) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// `AlertConfiguration`: what the device shows (and sounds) with an update.
public struct ActivityAlertPayload: Sendable, Hashable, Codable {
    public var title: String
    public var body: String
    /// `"default"` or a sound file's name; nil is silent.
    public var sound: String?

    public init(title: String, body: String, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}

/// `ActivityUIDismissalPolicy`: how long an ended activity stays on the Lock Screen.
/// On the wire `{"type":"default"}`, `{"type":"immediate"}`, `{"type":"after","date":…}`.
public enum ActivityDismissalPolicyPayload: Sendable, Hashable, Codable, CustomStringConvertible {
    case `default`
    case immediate
    case after(Date)

    private enum CodingKeys: String, CodingKey { case type, date }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "default": self = .default
        case "immediate": self = .immediate
        case "after": self = .after(try container.decode(Date.self, forKey: .date))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "dismissal policy type \"\(type)\" is not one of default, immediate, after")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .default: try container.encode("default", forKey: .type)
        case .immediate: try container.encode("immediate", forKey: .type)
        case .after(let date):
            try container.encode("after", forKey: .type)
            try container.encode(date, forKey: .date)
        }
    }

    public var description: String {
        switch self {
        case .default: ".default"
        case .immediate: ".immediate"
        case .after(let date): ".after(\(RFC3339.format(date)))"
        }
    }
}

/// Where an activity's update came from: only APNs priority-10 pushes are budgeted.
public enum ActivityUpdateSource: String, Sendable, Hashable, Codable {
    /// `Activity.update` / `end` from the app: never budgeted (Apple).
    case app
    /// An APNs push at priority 5: not budgeted (Apple), delivered opportunistically on a device.
    case push5
    /// An APNs push at priority 10: counted against the hourly push budget.
    case push10
    /// The host itself: the 8-hour limit, a stale date, a dismissal.
    case host
}

/// Priority-10 pushes delivered in the last hour, of the budget.
public struct PushBudgetUsage: Sendable, Hashable, Codable {
    public var used: Int
    public var limit: Int
    /// Whether the frequent-updates entitlement raised the limit.
    public var frequentUpdates: Bool

    public init(used: Int, limit: Int, frequentUpdates: Bool) {
        self.used = used
        self.limit = limit
        self.frequentUpdates = frequentUpdates
    }
}

/// A Live Activity as the host shows it (`activity/get`, `activity/list`, the replies).
public struct ActivityInfo: Sendable, Hashable, Codable {
    public var id: String
    public var app: String
    /// The `ActivityAttributes` type's name, e.g. `PizzaDeliveryAttributes`.
    public var attributesType: String
    public var attributes: JSONValue
    public var content: ActivityContentPayload
    public var state: ActivityStateName
    public var startedAt: Date
    public var updatedAt: Date
    public var endedAt: Date?
    /// When it leaves (or left) the Lock Screen.
    public var dismissAt: Date?
    /// Its push token (hex), when it was requested with `pushType: .token` or started by a push.
    public var pushToken: String?
    public var pushBudget: PushBudgetUsage
    public var lastAlert: ActivityAlertPayload?
    /// Size of attributes plus content state in bytes, as the 4 KB limit counts it.
    public var payloadBytes: Int

    public init(
        id: String, app: String, attributesType: String, attributes: JSONValue, content: ActivityContentPayload,
        state: ActivityStateName, startedAt: Date, updatedAt: Date, endedAt: Date?, dismissAt: Date?,
        pushToken: String?, pushBudget: PushBudgetUsage, lastAlert: ActivityAlertPayload?, payloadBytes: Int
    ) {
        self.id = id
        self.app = app
        self.attributesType = attributesType
        self.attributes = attributes
        self.content = content
        self.state = state
        self.startedAt = startedAt
        self.updatedAt = updatedAt
        self.endedAt = endedAt
        self.dismissAt = dismissAt
        self.pushToken = pushToken
        self.pushBudget = pushBudget
        self.lastAlert = lastAlert
        self.payloadBytes = payloadBytes
    }
}

/// One line of an activity's story (`widgethost activity ID`).
public struct ActivityHistoryItem: Sendable, Hashable, Codable {
    public var at: Date
    /// `requested`, `updated`, `throttled`, `stale`, `ended`, `dismissed`, `refused`.
    public var event: String
    public var source: ActivityUpdateSource
    public var detail: String

    public init(at: Date, event: String, source: ActivityUpdateSource, detail: String) {
        self.at = at
        self.event = event
        self.source = source
        self.detail = detail
    }
}
