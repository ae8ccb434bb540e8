import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// What the doctor holds an extension to. The hard limits are the host's own
/// (`HostConfiguration`: 1 s placeholder, 5 s snapshot and timeline, 30 MiB, 5-minute
/// minimum interval); the margins are the doctor's, because a phone is slower than a CI
/// machine and iOS counts more memory than `RssAnon + VmSwap`.
public struct DoctorLimits: Sendable, Hashable {
    /// The host's rules the figures are compared with.
    public var host: HostConfiguration = .default
    /// A time passes only at or below this fraction of its deadline (2.5 s of 5 s); above
    /// it warns, past the deadline it fails.
    public var timeMargin = 0.5
    /// A footprint passes only at or below this fraction of the limit (20 MiB of 30 MiB).
    public var memoryMargin = 2.0 / 3.0
    /// More entries than this warns: each costs memory and a device renders each one.
    public var warnEntries = 30
    /// A reload interval below this warns: at 96 a day it outruns the 40–70 budget.
    public var warnInterval: TimeInterval = 15 * 60
    /// How often footprint is sampled while a request runs (the host samples every 50 ms;
    /// the doctor looks closer, to catch short peaks).
    public var footprintSampleInterval: TimeInterval = 0.01

    public init() {}

    /// The host's deadline for `method` (the core's rule).
    func timeout(for method: ExtensionMethod) -> TimeInterval { host.limits.timeout(for: method) }
    var memory: Int { host.limits.memory }
    /// Below this a policy fails: the host never reloads sooner.
    var failInterval: TimeInterval { host.policy.minReloadInterval }
}
