import Foundation

/// Every tunable rule of the host, with DESIGN.md's defaults. The config file maps onto
/// this one-to-one (`budget.min` → `budget.min`); the core never reads the file itself.
public struct HostConfiguration: Sendable, Hashable, Codable {
    public var budget = BudgetRules()
    public var policy = PolicyRules()
    public var limits = ExtensionLimits()
    public var backoff = BackoffRules()
    public var extensionLifecycle = ExtensionLifecycle()
    /// `[activities]`: Live Activities and pushes.
    public var activities = ActivityRules()
    /// How many diagnostics each widget keeps for `status`.
    public var diagnosticsKept = 20

    public init() {}

    public static let `default` = HostConfiguration()
}

public struct BudgetRules: Sendable, Hashable, Codable {
    /// B with no engagement (Apple: 40–70 reloads a day).
    public var min = 40
    /// B at full engagement.
    public var max = 70
    /// Views in the last 24 h that count as full engagement (e = 1).
    public var fullEngagementViews = 12
    /// After a widget is added, e = 1 for this long (Apple: the system gives more while it learns).
    public var learningPeriod: TimeInterval = 72 * 3600
    /// false behaves like a device under a debugger: every reload is exempt.
    public var enforce = true
    /// B pinned per widget kind, overriding the engagement formula.
    public var pinned: [String: Int] = [:]
    /// The sliding window the budget is counted over.
    public var window: TimeInterval = 24 * 3600

    public init() {}
}

public struct PolicyRules: Sendable, Hashable, Codable {
    /// A budgeted reload never starts sooner than this after the previous one started,
    /// and a policy's due time is never sooner than this after the reload that produced it.
    public var minReloadInterval: TimeInterval = 5 * 60
    public init() {}
}

public struct ExtensionLimits: Sendable, Hashable, Codable {
    /// More entries than this gives a `manyEntries` diagnostic.
    public var warnEntries = 100
    /// More entries than this is rejected (observed: updates stop past ~400).
    public var maxEntries = 400
    /// A `timeline/get` reply larger than this is rejected.
    public var maxTimelineBytes = 4 * 1024 * 1024
    /// An entry's view archive with more nodes than this is refused (the placeholder shows).
    public var maxViewNodes = 2000
    /// An entry's view archive nested deeper than this is refused.
    public var maxViewDepth = 64
    /// From request to reply for `timeline/get` and `snapshot/get`.
    public var timelineTimeout: TimeInterval = 5
    /// From request to reply for `placeholder/get`.
    public var placeholderTimeout: TimeInterval = 1
    /// From request to reply for `intent/perform`, `intent/options` and `control/value`.
    public var intentTimeout: TimeInterval = 5
    /// Footprint (RssAnon + VmSwap) above this is a memory kill, like jetsam.
    public var memory = 30 * 1024 * 1024
    /// How often the shell samples footprint while a request runs.
    public var memorySampleInterval: TimeInterval = 0.05
    /// How each extension process is confined (docs/security.md).
    public var sandbox = SandboxMode.auto
    /// Tasks (processes and threads) an extension may add: `RLIMIT_NPROC` over what its user
    /// has when it starts, or `pids.max` in its own cgroup.
    public var processes = 32
    /// Descriptors an extension may hold open (`RLIMIT_NOFILE`; iOS gives an app 256).
    public var openFiles = 256
    public init() {}
}

/// `limits.sandbox`.
public enum SandboxMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every rule the kernel supports; what is missing is logged once, at start.
    case auto
    /// Refuse to start an extension when a rule cannot be applied, naming the rule.
    case required
    /// No sandbox: extensions run with the host's reach (for debugging only).
    case off
}

public struct BackoffRules: Sendable, Hashable, Codable {
    /// The wait after the first failure; it doubles with each further failure.
    public var initial: TimeInterval = 60
    public var maximum: TimeInterval = 3600
    public init() {}
}

public struct ExtensionLifecycle: Sendable, Hashable, Codable {
    /// An extension process with nothing to do is stopped after this long.
    public var idleTimeout: TimeInterval = 30
    public init() {}
}

extension TimeInterval {
    public static func seconds(_ value: Double) -> TimeInterval { value }
    public static func minutes(_ value: Double) -> TimeInterval { value * 60 }
    public static func hours(_ value: Double) -> TimeInterval { value * 3600 }
    public static func days(_ value: Double) -> TimeInterval { value * 86_400 }
}
