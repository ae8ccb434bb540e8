import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// What a simulation found: one report per widget, and (with `keepEventLog`) every event.
public struct SimulationResult: Sendable {
    public var scenario: ScenarioSummary
    public var widgets: [WidgetReport]
    /// One report per Live Activity started (`[[activity]]`).
    public var activities: [ActivityReport] = []
    public var events: [SimulationEvent]
    /// How long the simulation took on this machine (not in the JSON, which must not vary).
    public var wallTime: TimeInterval

    public func widget(_ id: String) -> WidgetReport? { widgets.first { $0.id == id } }
    public func activity(_ id: String) -> ActivityReport? { activities.first { $0.id == id } }

    public init(scenario: ScenarioSummary, widgets: [WidgetReport], events: [SimulationEvent], wallTime: TimeInterval) {
        self.scenario = scenario
        self.widgets = widgets
        self.events = events
        self.wallTime = wallTime
    }
}

public struct ScenarioSummary: Sendable, Codable {
    public var file: String
    public var start: Date
    public var end: Date
    public var timezone: String
    public var seed: UInt64
    public var widgets: Int
}

/// The figures of DESIGN.md for one widget instance over the simulated period.
public struct WidgetReport: Sendable, Codable {
    public var id: String
    public var kind: String
    public var family: WidgetFamily
    public var app: String
    public var `extension`: String
    /// `provider`, or the bundle's directory name.
    public var source: String
    /// Reload requests that reached this widget (app calls, foreground or not).
    public var requests = 0
    public var budgetedReloads = 0
    public var exemptReloads = 0
    /// Requests merged into a reload that was already pending.
    public var coalesced = 0
    /// Reloads that could not start when requested or due, by the first reason given.
    public var deferred = 0
    public var deferredBy: [String: Int] = [:]
    /// B at the end of the period.
    public var budget = 0
    /// The first deferral for `budgetExhausted`.
    public var exhaustedAt: Date?
    /// Total time due or requested reloads waited to start (including one still waiting at the end).
    public var staleSeconds: Double = 0
    public var longestStaleSeconds: Double = 0
    public var timeouts = 0
    public var memoryKills = 0
    /// `crashed` and `protocolError` outcomes.
    public var crashes = 0
    public var invalidTimelines = 0
    /// For the SVG: each reload's start, and the spans reloads spent deferred.
    public var reloads: [ReloadTick] = []
    public var deferrals: [DeferralSpan] = []

    enum CodingKeys: String, CodingKey {
        case id, kind, family, app, `extension`, source, requests, budgetedReloads, exemptReloads, coalesced,
            deferred, deferredBy, budget, exhaustedAt, staleSeconds, longestStaleSeconds, timeouts, memoryKills,
            crashes, invalidTimelines
    }
}

public struct ReloadTick: Sendable, Hashable {
    public var at: Date
    public var budgeted: Bool
}

public struct DeferralSpan: Sendable, Hashable {
    public var from: Date
    public var until: Date
    public var reason: DeferralReason
}

/// One line of the event log: a scenario input, or a notice of the core (as `subscribe` sends it).
public enum SimulationEvent: Sendable, Encodable {
    case input(InputRecord)
    case notice(HostNotice)

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .input(let record): try record.encode(to: encoder)
        case .notice(let notice): try notice.encode(to: encoder)
        }
    }
}

/// What the scenario did: `reloadRequested` (with each widget's outcome) or `viewRecorded`.
public struct InputRecord: Sendable, Encodable {
    public var type: String
    public var at: Date
    public var app: String?
    public var kind: String?
    public var foreground: Bool?
    public var widgetId: String?
    public var outcomes: [WidgetReloadOutcome]?
    /// For `activityPush`: what became of the push.
    public var push: ActivityPushResult?
    /// For a refused activity input: the reason's name.
    public var refusal: String?
}
