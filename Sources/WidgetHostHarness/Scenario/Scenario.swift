import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// A scenario file (`docs/harness.md`): when the simulated period starts and how long it
/// lasts, the host's rules, the widgets on the home screen and what their apps do.
public struct Scenario: Sendable {
    /// The file as the user named it (for messages).
    public var file: String
    public var start: Date
    public var duration: TimeInterval
    /// Times of day ("08:00") are in this zone; real extensions run with `TZ` set to it.
    public var timeZone: TimeZone
    /// The zone as the scenario names it (Foundation calls UTC "GMT").
    public var timeZoneName: String
    /// Draws for `per_day` reloads; `--seed` overrides it.
    public var seed: UInt64
    /// Where real extensions find their app group containers (one directory per group id).
    public var appGroupsPath: String?
    public var host: HostConfiguration
    public var widgets: [ScenarioWidget]
    public var apps: [ScenarioApp]
    /// `[[activity]]`: Live Activities and their pushes.
    public var activities: [ScenarioActivity] = []
    /// `[[widget_push]]`: WidgetKit pushes.
    public var widgetPushes: [ScenarioWidgetPush] = []
    /// `[[device]]`: locale and Dynamic Type changes.
    public var deviceChanges: [ScenarioDeviceChange] = []

    public var end: Date { start + duration }
}

/// One `[[widget]]` table: `count` instances of a kind, each added at the start.
public struct ScenarioWidget: Sendable {
    public enum Source: Sendable {
        /// A synthetic provider answered in-process at virtual time.
        case provider(SyntheticProvider)
        /// A real extension bundle, spawned per request under libfaketime.
        case bundle(path: String)
    }

    public var kind: String
    public var family: WidgetFamily
    public var source: Source
    /// The app the widget belongs to (synthetic providers); a bundle's comes from its id.
    public var app: String?
    public var viewsPerDay: Int
    /// Pins B for these instances.
    public var budget: Int?
    public var count: Int
    /// The line of the `[[widget]]` table, for messages about it.
    public var line: Int
    /// `taps` and `configure`: what the user does to each instance, and when.
    public var interactions: [WidgetInteraction] = []
}

/// What a synthetic provider answers to `timeline/get`: `entries` entries `every` apart from
/// `now`, the policy, after `work` of simulated time, with `footprint` as its memory.
public struct SyntheticProvider: Sendable, Hashable {
    public enum Policy: String, Sendable, Hashable, CaseIterable {
        case atEnd, after, never
    }

    public var policy: Policy
    public var every: TimeInterval
    public var entries: Int
    public var work: TimeInterval
    public var footprint: Int

    public init(
        policy: Policy = .after, every: TimeInterval = 15 * 60, entries: Int = 1, work: TimeInterval = 0,
        footprint: Int = 8 * 1024 * 1024
    ) {
        self.policy = policy
        self.every = every
        self.entries = entries
        self.work = work
        self.footprint = footprint
    }
}

/// One `[[app]]` table: the containing app's reload calls and when it is in the foreground.
public struct ScenarioApp: Sendable {
    public var id: String
    public var reloads: [ReloadSchedule]
    public var foreground: [ForegroundWindow]
}

/// When an app calls `reloadTimelines(ofKind:)` (or `reloadAllTimelines()` without a kind).
public struct ReloadSchedule: Sendable {
    public enum When: String, Sendable, CaseIterable {
        /// Whether or not the app is in the foreground.
        case always
        /// Only while the app is in the foreground (those calls are exempt).
        case foreground
        /// Only while it is in the background (those calls are budgeted).
        case background
    }

    public enum Times: Sendable {
        /// Every `interval` from `from` until `until` (times of day), each day.
        case every(TimeInterval, from: TimeInterval, until: TimeInterval)
        /// At these times of day, each day.
        case at([TimeInterval])
        /// A number of calls drawn from the range each day, at random times in [from, until).
        case perDay(ClosedRange<Int>, from: TimeInterval, until: TimeInterval)
    }

    public var kind: String?
    public var times: Times
    public var when: When
    /// The line of the schedule, for messages about it.
    public var line: Int
}

/// The app is open from `from` (time of day) for `length`, each day.
public struct ForegroundWindow: Sendable {
    public var from: TimeInterval
    public var length: TimeInterval
}
