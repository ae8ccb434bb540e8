import Foundation

/// One item of the `subscribe` stream (and of the harness's event log). Flat, with only
/// the fields that apply set, so that `jq 'select(.type=="reloadDeferred")'` just works.
public struct HostNotice: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case widgetAdded
        case widgetRemoved
        case reloadStarted
        case reloadCoalesced
        case reloadDeferred
        case reloadFinished
        case entryChanged
        case diagnostic
        case extensionKilled
        case extensionStopped
        case snapshotReceived
    }

    public var type: Kind
    public var at: Date
    public var widgetId: String?
    public var kind: String?
    public var `extension`: String?
    public var budgeted: Bool?
    /// Why an exempt reload was exempt (`added`, `foreground`, `reboot`, …).
    public var exemption: String?
    /// When the reload was first requested or fell due (for staleness).
    public var requestedAt: Date?
    public var until: Date?
    public var reason: DeferralReason?
    public var result: ReloadResultKind?
    public var durationMs: Double?
    public var footprintBytes: Int?
    public var detail: String?
    public var entry: TimelineEntryPayload?
    public var diagnostic: Diagnostic?

    public init(type: Kind, at: Date) {
        self.type = type
        self.at = at
    }
}
