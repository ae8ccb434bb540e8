import Foundation
import WidgetHostProtocol

/// The one reload an instance may have waiting. A request while one is pending merges into
/// it (`coalesced`); an exempt request makes it exempt.
public struct PendingReload: Sendable, Hashable, Codable {
    /// When the first of the merged requests was made or the policy fell due (for staleness).
    public var requestedAt: Date
    public var cause: ReloadCause
    /// nil: budgeted.
    public var exemption: Exemption?
    /// Already charged once (its process died under it, or the host restarted): runs uncharged.
    public var prepaid: Bool
    /// When the gates let it start, and which gate decided, once it has been deferred.
    public var deferredUntil: Date?
    public var deferredBy: DeferralReason?

    public init(requestedAt: Date, cause: ReloadCause, exemption: Exemption?, prepaid: Bool = false) {
        self.requestedAt = requestedAt
        self.cause = cause
        self.exemption = exemption
        self.prepaid = prepaid
    }

    public var isBudgeted: Bool { exemption == nil && !prepaid }

    /// How it is paid for when it starts.
    var charge: ReloadCharge {
        if let exemption { return .exempt(exemption) }
        return prepaid ? .prepaid : .budgeted
    }

    /// Merges another request into this one.
    public mutating func coalesce(cause: ReloadCause, exemption: Exemption?, at now: Date) {
        requestedAt = min(requestedAt, now)
        if self.exemption == nil, let exemption {
            self.exemption = exemption
            self.cause = cause
        }
    }
}

/// A reload whose `timeline/get` has been started (charged) and not yet answered.
public struct RunningReload: Sendable, Hashable, Codable {
    public var startedAt: Date
    public var requestedAt: Date
    public var budgeted: Bool
    public var exemption: Exemption?
    public var cause: ReloadCause
}
