import Foundation
import Logging
import NIOCore
import WidgetHostConfiguration
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// The runner's `CgroupPlacement` on the daemon's event loop: its sentences go to the log,
/// and a cgroup that cannot be removed yet is retried on the loop. Confined to the loop.
final class ExtensionCgroups: @unchecked Sendable {
    let placement: CgroupPlacement
    let eventLoop: any EventLoop
    let logger: Logger

    init(placement: CgroupPlacement, eventLoop: any EventLoop, logger: Logger) {
        self.placement = placement
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// The placement `limits.cgroup` asks for: none with `off` (cgroups are never touched);
    /// with `auto`, none where no delegated cgroup v2 subtree is available — said once, here.
    static func make(
        mode: CgroupMode, sources: CgroupDelegation.Sources = .init(), memoryLimit: Int, processLimit: Int? = nil,
        eventLoop: any EventLoop, logger: Logger
    ) -> ExtensionCgroups? {
        guard mode == .auto else { return nil }
        do {
            let placement = try CgroupPlacement.prepare(sources, memoryLimit: memoryLimit, processLimit: processLimit)
            logger.notice("\(placement.announcement)", metadata: ["CGROUP": "\(placement.delegation.directory)"])
            return ExtensionCgroups(placement: placement, eventLoop: eventLoop, logger: logger)
        } catch {
            logger.notice("no cgroup per extension (limits.cgroup = auto): \(error); sampling /proc enforces limits.memory")
            return nil
        }
    }

    /// Extension cgroups that exist now.
    var count: Int { placement.count }

    /// Moves a just-spawned process into a cgroup of its own; if that fails it runs on where
    /// it is, watched by sampling only.
    func place(_ pid: pid_t, bundleID: String) {
        eventLoop.preconditionInEventLoop()
        do {
            try placement.place(pid, bundleID: bundleID)
        } catch {
            logger.warning(
                "extension process \(pid) stays in the daemon's cgroup (\(error)); sampling /proc enforces limits.memory",
                metadata: ["EXTENSION": "\(bundleID)"])
        }
    }

    func memoryKill(of pid: pid_t) -> Int? {
        placement.memoryKill(of: pid)
    }

    /// `pid` has been reaped: a kernel memory kill's footprint, or nil; the cgroup goes.
    func release(_ pid: pid_t) -> Int? {
        eventLoop.preconditionInEventLoop()
        let (kill, leftover) = placement.release(pid)
        if let leftover { retryRemoval(leftover, attempt: 2) }
        return kill
    }

    private func retryRemoval(_ group: ExtensionCgroup, attempt: Int) {
        let delay = TimeAmount.nanoseconds(Int64(CgroupPlacement.retryDelay * 1_000_000_000))
        eventLoop.scheduleTask(in: delay) { [self] in
            switch placement.remove(group, attempt: attempt) {
            case .removed: break
            case .retry: retryRemoval(group, attempt: attempt + 1)
            case .gaveUp(let reason): logger.warning("\(reason)")
            }
        }
    }
}
