import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `limits.cgroup = auto`: every extension process goes into a cgroup of its own with
/// `memory.max = limits.memory` (and `pids.max`, `limits.processes` besides itself, where the
/// pids controller is delegated) right after it is spawned; `memory.events` `oom_kill` tells
/// a kernel memory kill from a crash; the cgroup is removed once the process is reaped.
/// Sampling `/proc` stays on either way (it also sees what was allocated before the move,
/// and gives the footprint figures).
///
/// No clock or loop of its own: whoever owns it (the daemon's event-loop face) calls it from
/// one thread and retries a removal `retryDelay` later when `release` says so.
public final class CgroupPlacement {
    public let delegation: CgroupDelegation
    public let memoryLimit: Int
    /// Tasks an extension may add (`limits.processes`), for `pids.max`; nil: none set.
    public let processLimit: Int?
    private var groups: [pid_t: ExtensionCgroup] = [:]
    /// How often, `retryDelay` apart, removing a cgroup is tried before giving up.
    public static let removalAttempts = 40
    public static let retryDelay: TimeInterval = 0.05

    public init(delegation: CgroupDelegation, memoryLimit: Int, processLimit: Int? = nil) {
        self.delegation = delegation
        self.memoryLimit = memoryLimit
        self.processLimit = processLimit
    }

    /// A placement in the delegated subtree, or why there is none on this host.
    public static func prepare(
        _ sources: CgroupDelegation.Sources = .init(), memoryLimit: Int, processLimit: Int? = nil
    ) throws(CgroupUnavailable) -> CgroupPlacement {
        CgroupPlacement(delegation: try CgroupDelegation.prepare(sources), memoryLimit: memoryLimit, processLimit: processLimit)
    }

    /// Each extension's cgroup gets `pids.max`.
    public var limitsProcesses: Bool { delegation.pids && processLimit != nil }

    /// What the log says once at start when every extension gets a cgroup.
    public var announcement: String {
        var line = "each extension gets its own cgroup under \(delegation.directory) with memory.max = \(memoryLimit) bytes"
        if limitsProcesses, let processLimit { line += " and pids.max = \(processLimit + 1)" }
        return line
    }

    /// Extension cgroups that exist now.
    public var count: Int { groups.count }

    /// Moves a just-spawned process into a cgroup of its own. If that fails the process runs
    /// on where it is, watched by sampling only; the error says why.
    public func place(_ pid: pid_t, bundleID: String) throws(CgroupFileError) {
        groups[pid] = try delegation.makeGroup(for: bundleID, pid: pid, memoryLimit: memoryLimit, processLimit: processLimit)
    }

    /// If the kernel killed a process in `pid`'s cgroup for `memory.max`: the footprint to report.
    public func memoryKill(of pid: pid_t) -> Int? {
        guard let group = groups[pid], group.oomKills > 0 else { return nil }
        return group.peakBytes
    }

    /// `pid` has been reaped: what its cgroup says about its death (a memory kill's
    /// footprint, or nil), and the cgroup that could not be removed yet, if any (retry it with
    /// `remove(_:attempt:)`).
    public func release(_ pid: pid_t) -> (memoryKill: Int?, leftover: ExtensionCgroup?) {
        guard let group = groups.removeValue(forKey: pid) else { return (nil, nil) }
        let kill = group.oomKills > 0 ? group.peakBytes : nil
        return (kill, remove(group, attempt: 1) == .retry ? group : nil)
    }

    public enum Removal: Sendable, Hashable {
        case removed
        /// Something is still in it (a descendant that has not died yet); it was killed: try again.
        case retry
        /// Given up after `removalAttempts`, with the reason for the log.
        case gaveUp(String)
    }

    /// `rmdir` fails while anything is left in the cgroup, so the rest is killed and the
    /// caller retries.
    public func remove(_ group: ExtensionCgroup, attempt: Int) -> Removal {
        if delegation.removeDirectory(group.directory) { return .removed }
        guard attempt < Self.removalAttempts else {
            return .gaveUp(
                "could not remove \(group.directory): \(String(cString: strerror(errno))); it is removed when the service stops")
        }
        group.killRemaining()
        return .retry
    }
}
