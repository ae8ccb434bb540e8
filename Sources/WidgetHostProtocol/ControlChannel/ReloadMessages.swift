import Foundation

public struct ReloadTimelinesParams: Sendable, Hashable, Codable {
    public var kind: String
    public var app: String?
    public var foreground: Bool?
    public init(kind: String, app: String? = nil, foreground: Bool? = nil) {
        self.kind = kind
        self.app = app
        self.foreground = foreground
    }
}

public struct ReloadAllTimelinesParams: Sendable, Hashable, Codable {
    public var app: String
    public var foreground: Bool?
    public init(app: String, foreground: Bool? = nil) {
        self.app = app
        self.foreground = foreground
    }
}

/// Why a reload did not start at once.
public enum DeferralReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The sliding 24-hour window already holds B budgeted reloads.
    case budgetExhausted
    /// Less than `policy.min_reload_interval` since the last reload started.
    case minInterval
    /// The widget failed recently and is backing off.
    case backoff
    /// A reload of this widget is running; one more follows it.
    case reloadInProgress
    /// The widget's extension is not loaded (removed, or skipped at the last scan).
    case extensionUnavailable
}

/// What happened to one widget instance's reload request.
public enum ReloadDisposition: String, Sendable, Hashable, Codable {
    case started
    case coalesced
    case deferred
}

/// The per-instance answer to every reload request — what the real host never says.
public struct WidgetReloadOutcome: Sendable, Hashable, Codable {
    public var id: String
    public var kind: String
    public var outcome: ReloadDisposition
    /// Whether the reload counts against the budget.
    public var budgeted: Bool
    /// When a deferred (or coalesced-into-deferred) reload will run, if known.
    public var until: Date?
    public var reason: DeferralReason?
    /// The instance's budget right after the request (a started budgeted reload is counted).
    /// Missing from daemons before it was added.
    public var budget: BudgetUsage?

    public init(
        id: String, kind: String, outcome: ReloadDisposition, budgeted: Bool,
        until: Date? = nil, reason: DeferralReason? = nil, budget: BudgetUsage? = nil
    ) {
        self.id = id
        self.kind = kind
        self.outcome = outcome
        self.budgeted = budgeted
        self.until = until
        self.reason = reason
        self.budget = budget
    }
}

/// Budgeted reloads started in the last 24 hours, of B: the two figures of `BudgetStatus`
/// that a reply to a reload carries.
public struct BudgetUsage: Sendable, Hashable, Codable {
    public var used: Int
    public var limit: Int
    public init(used: Int, limit: Int) {
        self.used = used
        self.limit = limit
    }
}

public struct ReloadResult: Sendable, Hashable, Codable {
    public var outcomes: [WidgetReloadOutcome]
    /// The daemon's clock when it answered (it may be virtual), to show `until` against.
    /// Missing from daemons before it was added.
    public var now: Date?
    public init(outcomes: [WidgetReloadOutcome], now: Date? = nil) {
        self.outcomes = outcomes
        self.now = now
    }
}
