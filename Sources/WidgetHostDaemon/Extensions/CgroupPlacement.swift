import Foundation
import Logging
import NIOCore
import WidgetHostConfiguration
#if canImport(Glibc)
import Glibc
#endif

/// `limits.cgroup = auto` in the supervisor: every extension process goes into a cgroup
/// of its own with `memory.max = limits.memory` right after it is spawned; `memory.events`
/// `oom_kill` tells a kernel memory kill from a crash; the cgroup is removed once the
/// process is reaped. Polling `/proc` stays on either way (it also sees what was allocated
/// before the move, and gives the footprint figures). Confined to the event loop.
final class CgroupPlacement: @unchecked Sendable {
    let delegation: CgroupDelegation
    let memoryLimit: Int
    let eventLoop: any EventLoop
    let logger: Logger
    private var groups: [pid_t: ExtensionCgroup] = [:]
    /// How often, 50 ms apart, removing a cgroup is tried before giving up with a warning.
    static let removalAttempts = 40

    init(delegation: CgroupDelegation, memoryLimit: Int, eventLoop: any EventLoop, logger: Logger) {
        self.delegation = delegation
        self.memoryLimit = memoryLimit
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// The placement `limits.cgroup` asks for: none with `off` (cgroups are never touched);
    /// with `auto`, none where no delegated cgroup v2 subtree is available — said once, here.
    static func make(
        mode: CgroupMode, sources: CgroupDelegation.Sources = .init(), memoryLimit: Int, eventLoop: any EventLoop,
        logger: Logger
    ) -> CgroupPlacement? {
        guard mode == .auto else { return nil }
        do {
            let delegation = try CgroupDelegation.prepare(sources)
            logger.notice(
                "each extension gets its own cgroup under \(delegation.directory) with memory.max = \(memoryLimit) bytes",
                metadata: ["CGROUP": "\(delegation.directory)"])
            return CgroupPlacement(delegation: delegation, memoryLimit: memoryLimit, eventLoop: eventLoop, logger: logger)
        } catch {
            logger.notice("no cgroup per extension (limits.cgroup = auto): \(error); sampling /proc enforces limits.memory")
            return nil
        }
    }

    /// Extension cgroups that exist now.
    var count: Int { groups.count }

    /// Moves a just-spawned process into a cgroup of its own. If that fails the process
    /// runs on where it is, watched by polling only.
    func place(_ pid: pid_t, bundleID: String) {
        eventLoop.preconditionInEventLoop()
        do {
            groups[pid] = try delegation.makeGroup(for: bundleID, pid: pid, memoryLimit: memoryLimit)
        } catch {
            logger.warning(
                "extension process \(pid) stays in the daemon's cgroup (\(error)); sampling /proc enforces limits.memory",
                metadata: ["EXTENSION": "\(bundleID)"])
        }
    }

    /// If the kernel killed a process in `pid`'s cgroup for `memory.max`: the footprint to report.
    func memoryKill(of pid: pid_t) -> Int? {
        guard let group = groups[pid], group.oomKills > 0 else { return nil }
        return group.peakBytes
    }

    /// `pid` has been reaped: what its cgroup says about its death (a memory kill's
    /// footprint, or nil), and the cgroup goes.
    func release(_ pid: pid_t) -> Int? {
        eventLoop.preconditionInEventLoop()
        guard let group = groups.removeValue(forKey: pid) else { return nil }
        let kill = group.oomKills > 0 ? group.peakBytes : nil
        remove(group, attempt: 1)
        return kill
    }

    /// `rmdir` fails while anything is left in the cgroup (a descendant that has not died
    /// yet), so the rest is killed and removal retried.
    private func remove(_ group: ExtensionCgroup, attempt: Int) {
        if delegation.removeDirectory(group.directory) { return }
        guard attempt < Self.removalAttempts else {
            logger.warning(
                "could not remove \(group.directory): \(String(cString: strerror(errno))); it is removed when the service stops")
            return
        }
        group.killRemaining()
        eventLoop.scheduleTask(in: .milliseconds(50)) { [self] in remove(group, attempt: attempt + 1) }
    }
}
