@_exported import Foundation
@_exported import SDKFoundation

/// ActivityKit's `ActivityAttributes`: the static data of a Live Activity, with its dynamic
/// part as `ContentState`. Both travel to widgethostd as JSON; together they must stay
/// within `activities.max_payload_bytes` (4 KB), as on a device.
public protocol ActivityAttributes: Decodable, Encodable, SendableMetatype {
    associatedtype ContentState: Decodable & Encodable & Hashable & SendableMetatype
}

/// `ActivityContent`: a content state, when it goes stale, and how relevant it is.
public struct ActivityContent<State: Decodable & Encodable & Hashable>: Equatable, Hashable {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double

    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

extension ActivityContent: Sendable where State: Sendable {}

/// `ActivityState`.
public enum ActivityState: Equatable, Hashable, Sendable, Codable {
    case active
    case ended
    case dismissed
    case stale
    case pending
}

/// `PushType`: `.token` asks for a push token for the activity's updates.
public struct PushType: Equatable, Hashable, Sendable {
    let name: String
    public static let token = PushType(name: "token")
}

/// `ActivityUIDismissalPolicy`: how long an ended activity stays on the Lock Screen.
public struct ActivityUIDismissalPolicy: Equatable, Hashable, Sendable {
    enum Kind: Equatable, Hashable, Sendable {
        case `default`
        case immediate
        case after(Date)
    }

    let kind: Kind
    /// Up to 4 hours after it ends (the host: `activities.max_lock_screen`).
    public static let `default` = ActivityUIDismissalPolicy(kind: .default)
    public static let immediate = ActivityUIDismissalPolicy(kind: .immediate)
    /// At `date`, but no later than 4 hours after it ends.
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy { ActivityUIDismissalPolicy(kind: .after(date)) }
}

/// `AlertConfiguration`: what an update shows and sounds on a device.
public struct AlertConfiguration: Equatable, Hashable, Sendable {
    public struct AlertSound: Equatable, Hashable, Sendable {
        let name: String?
        public static let `default` = AlertSound(name: "default")
        public static func named(_ name: String) -> AlertSound { AlertSound(name: name) }
    }

    public var title: LocalizedStringResource
    public var body: LocalizedStringResource
    public var sound: AlertSound

    public init(title: LocalizedStringResource, body: LocalizedStringResource, sound: AlertSound) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}

/// `ActivityAuthorizationInfo`: whether the host lets this app start Live Activities
/// (`activities.enabled`), asked of widgethostd when read.
public struct ActivityAuthorizationInfo: Sendable {
    public init() {}

    /// False when widgethostd says Live Activities are off, or cannot be reached.
    public var areActivitiesEnabled: Bool {
        (try? ActivityHost.shared.list(app: ActivityHost.shared.appIdentifier)) != nil
            && ActivityHost.shared.enabled()
    }

    /// Whether the app's extension has the frequent-updates entitlement.
    public var frequentPushesEnabled: Bool { ActivityHost.shared.frequentPushes() }
}

/// `ActivityAuthorizationError`: why `Activity.request` failed, with Apple's names.
public enum ActivityAuthorizationError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Attributes plus content state over 4 KB.
    case attributesTooLarge
    /// Live Activities are turned off (`activities.enabled = false`).
    case denied
    /// The device's limit of ongoing activities.
    case globalMaximumExceeded
    /// The app's limit of ongoing activities (`activities.max_per_app`).
    case targetMaximumExceeded
    /// The host could not be reached or refused for another reason; the text says which.
    case persistenceFailure(String)
    case unsupported

    public var description: String {
        switch self {
        case .attributesTooLarge: "attributesTooLarge: the attributes and content state exceed 4 KB"
        case .denied: "denied: Live Activities are not enabled"
        case .globalMaximumExceeded: "globalMaximumExceeded"
        case .targetMaximumExceeded: "targetMaximumExceeded: the app has the most ongoing Live Activities allowed"
        case .persistenceFailure(let text): "persistenceFailure: \(text)"
        case .unsupported: "unsupported"
        }
    }

    public init(reason: String?, message: String) {
        switch reason {
        case "attributesTooLarge": self = .attributesTooLarge
        case "denied": self = .denied
        case "targetMaximumExceeded": self = .targetMaximumExceeded
        default: self = .persistenceFailure(message)
        }
    }
}
