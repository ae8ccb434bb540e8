import Foundation

/// How a reload ended.
public enum ReloadResultKind: String, Sendable, Hashable, Codable, CaseIterable {
    case success
    case timedOut
    case memoryLimitExceeded
    case crashed
    case protocolError
    case invalidTimeline
}

public enum DiagnosticSeverity: String, Sendable, Hashable, Codable {
    case info, warning, error
}

/// Something the host noticed about a widget, with a sentence that says what to do.
public struct Diagnostic: Sendable, Hashable, Codable {
    public var at: Date
    public var code: String
    public var severity: DiagnosticSeverity
    public var message: String

    public init(at: Date, code: String, severity: DiagnosticSeverity, message: String) {
        self.at = at
        self.code = code
        self.severity = severity
        self.message = message
    }
}

public struct BudgetStatus: Sendable, Hashable, Codable {
    /// Budgeted reloads started in the last 24 hours.
    public var used: Int
    /// B, the daily budget in force now.
    public var limit: Int
    /// Engagement e in [0, 1] that B was computed from.
    public var engagement: Double
    /// Views recorded in the last 24 hours.
    public var views: Int
    /// True during the learning period after the widget was added (e = 1).
    public var learning: Bool
    /// True when B is pinned by config or scenario.
    public var pinned: Bool
    public var enforced: Bool
    /// Start times of the budgeted reloads in the window, oldest first.
    public var ledger: [Date]
    /// When the next budgeted reload may start as far as the budget is concerned.
    public var nextFreeSlot: Date

    public init(
        used: Int, limit: Int, engagement: Double, views: Int, learning: Bool, pinned: Bool,
        enforced: Bool, ledger: [Date], nextFreeSlot: Date
    ) {
        self.used = used
        self.limit = limit
        self.engagement = engagement
        self.views = views
        self.learning = learning
        self.pinned = pinned
        self.enforced = enforced
        self.ledger = ledger
        self.nextFreeSlot = nextFreeSlot
    }
}

/// Why the next reload will happen when it will.
public struct NextReload: Sendable, Hashable, Codable {
    public var at: Date?
    /// `policy`, `requested`, `retry`, `none` (a `.never` policy with nothing pending).
    public var cause: String
    public var budgeted: Bool
    /// Set when the reload is waiting on a gate.
    public var deferredBy: DeferralReason?

    public init(at: Date?, cause: String, budgeted: Bool, deferredBy: DeferralReason? = nil) {
        self.at = at
        self.cause = cause
        self.budgeted = budgeted
        self.deferredBy = deferredBy
    }
}

public struct LastOutcome: Sendable, Hashable, Codable {
    public var result: ReloadResultKind
    public var startedAt: Date
    public var finishedAt: Date
    public var durationMs: Double
    public var peakFootprintBytes: Int?
    public var detail: String?

    public init(
        result: ReloadResultKind, startedAt: Date, finishedAt: Date, peakFootprintBytes: Int?, detail: String?
    ) {
        self.result = result
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationMs = (finishedAt.timeIntervalSince(startedAt) * 1000).rounded() 
        self.peakFootprintBytes = peakFootprintBytes
        self.detail = detail
    }
}

/// Where the entry shown right now comes from.
public enum EntrySource: String, Sendable, Hashable, Codable {
    /// The latest entry of the current timeline whose date has passed.
    case timeline
    /// The new timeline has not started yet; the previous timeline's entry stays.
    case previousTimeline
    case placeholder
    case none
}

public struct CurrentEntry: Sendable, Hashable, Codable {
    public var source: EntrySource
    public var entry: TimelineEntryPayload?
    public init(source: EntrySource, entry: TimelineEntryPayload?) {
        self.source = source
        self.entry = entry
    }
}

public struct BackoffStatus: Sendable, Hashable, Codable {
    public var consecutiveFailures: Int
    public var until: Date?
    public init(consecutiveFailures: Int, until: Date?) {
        self.consecutiveFailures = consecutiveFailures
        self.until = until
    }
}

/// Everything `widgethost status` shows about one widget instance.
public struct WidgetStatus: Sendable, Hashable, Codable {
    public var widget: WidgetInfo
    public var addedAt: Date
    public var budget: BudgetStatus
    public var nextReload: NextReload
    public var reloadRunning: Bool
    public var lastOutcome: LastOutcome?
    public var currentEntry: CurrentEntry
    public var policy: TimelinePolicy?
    /// Since when a due or requested reload has been waiting; nil when the widget is fresh.
    public var staleSince: Date?
    public var staleSeconds: Double
    public var backoff: BackoffStatus
    public var diagnostics: [Diagnostic]
    /// An intent tapped in the widget that is still running (protocol version 3).
    public var interaction: IntentInteraction?

    public init(
        widget: WidgetInfo, addedAt: Date, budget: BudgetStatus, nextReload: NextReload, reloadRunning: Bool,
        lastOutcome: LastOutcome?, currentEntry: CurrentEntry, policy: TimelinePolicy?, staleSince: Date?,
        staleSeconds: Double, backoff: BackoffStatus, diagnostics: [Diagnostic], interaction: IntentInteraction? = nil
    ) {
        self.widget = widget
        self.addedAt = addedAt
        self.budget = budget
        self.nextReload = nextReload
        self.reloadRunning = reloadRunning
        self.lastOutcome = lastOutcome
        self.currentEntry = currentEntry
        self.policy = policy
        self.staleSince = staleSince
        self.staleSeconds = staleSeconds
        self.backoff = backoff
        self.diagnostics = diagnostics
        self.interaction = interaction
    }
}

public struct StatusResult: Sendable, Hashable, Codable {
    public var now: Date
    public var widgets: [WidgetStatus]
    /// The loaded extensions (with an id: that widget's), each with its sandbox; absent from a
    /// host that does not say.
    public var extensions: [ExtensionStatus]?
    public init(now: Date, widgets: [WidgetStatus], extensions: [ExtensionStatus]? = nil) {
        self.now = now
        self.widgets = widgets
        self.extensions = extensions
    }
}

public struct TimelineResult: Sendable, Hashable, Codable {
    public var id: String
    public var entries: [TimelineEntryPayload]
    public var policy: TimelinePolicy?
    public var receivedAt: Date?
    public var currentEntry: CurrentEntry
    /// The widget's family (protocol version 2): the size its views are drawn at.
    public var family: WidgetFamily?
    /// The widget's placeholder entry (protocol version 2): drawn, redacted, before the first
    /// timeline and in place of a view the host refused.
    public var placeholder: TimelineEntryPayload?
    /// The previous timeline's entry, shown until the first entry of this one is due.
    public var previousEntry: TimelineEntryPayload?

    public init(
        id: String, entries: [TimelineEntryPayload], policy: TimelinePolicy?, receivedAt: Date?,
        currentEntry: CurrentEntry, family: WidgetFamily? = nil, placeholder: TimelineEntryPayload? = nil,
        previousEntry: TimelineEntryPayload? = nil
    ) {
        self.id = id
        self.entries = entries
        self.policy = policy
        self.receivedAt = receivedAt
        self.currentEntry = currentEntry
        self.family = family
        self.placeholder = placeholder
        self.previousEntry = previousEntry
    }
}
