import Foundation

/// The `[activities]` table: Live Activities' limits and push budgets. Each value's source
/// is in docs/rules.md ("Live Activities and pushes").
public struct ActivityRules: Sendable, Hashable, Codable {
    /// `ActivityAuthorizationInfo().areActivitiesEnabled`; false refuses every request with `denied`.
    public var enabled = true
    /// Attributes plus content state, as JSON, at most this many bytes (Apple: 4 KB).
    public var maxPayloadBytes = 4096
    /// Ongoing (active or stale) activities per app at once (observed: 2–3; the seed's figure).
    public var maxPerApp = 3
    /// An activity is ended by the host this long after it started (Apple: 8 hours).
    public var maxActive: TimeInterval = 8 * 3600
    /// An ended activity stays on the Lock Screen at most this long (Apple: up to 4 hours);
    /// `.default` keeps it this long, `.after(date)` is capped at it.
    public var maxLockScreen: TimeInterval = 4 * 3600
    /// Priority-10 pushes per activity in `pushWindow` (observed: about 10–12 an hour).
    public var pushBudget = 10
    /// The same with the frequent-updates entitlement (ours: Apple says "significantly higher").
    public var frequentPushBudget = 60
    /// The window both push budgets are counted over.
    public var pushWindow: TimeInterval = 3600
    /// Push-to-start pushes per app in `pushWindow` (ours: Apple budgets them apart and gives no figure).
    public var pushToStartBudget = 5
    /// A dismissed activity's record (and story) is kept this long, then forgotten.
    public var keepDismissed: TimeInterval = 24 * 3600
    /// Lines of history kept per activity.
    public var historyKept = 200

    public init() {}

    /// The Info.plist key that raises the push budget (Apple, iOS 16.2+: "Set the corresponding
    /// value to `true` to enable your Live Activities to receive frequent updates with remote
    /// push notifications"). Apple reads it from the app's Info.plist; the host, which has only
    /// the extension's bundle, reads it from the extension's.
    public static let frequentUpdatesInfoKey = "NSSupportsLiveActivitiesFrequentUpdates"
    /// The same as an entitlement in the extension's `.entitlements` file (ours: the name issue
    /// 15 gave; Apple documents the Info.plist key, not this entitlement).
    public static let frequentUpdatesEntitlement = "com.apple.developer.activity-push-notification-frequent-updates"
}
