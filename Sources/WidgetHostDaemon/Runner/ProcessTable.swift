import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Every extension process this daemon started and has not reaped yet (request processes
/// and `initialize` probes alike), so that shutdown can stop them all and wait until each
/// is reaped: no zombie and no orphan outlives the daemon. Confined to the event loop.
final class ProcessTable: @unchecked Sendable {
    let eventLoop: any EventLoop
    private var live: [ObjectIdentifier: ProcessPipes] = [:]
    private var drained: [EventLoopPromise<Void>] = []

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    var count: Int { live.count }

    /// The bundle id of the extension whose process group the process `pid` is in (every
    /// extension process leads its own group, and its children stay in it), or nil.
    func extensionBundleID(ofPeer pid: pid_t) -> String? {
        eventLoop.preconditionInEventLoop()
        // 0: the peer is in another pid namespace (and getpgid(0) would be our own group).
        // No extension running: no group to be in, and no system call per request to learn it.
        guard pid > 0, !live.isEmpty else { return nil }
        let group = getpgid(pid)
        guard group > 0 else { return nil }
        return live.values.first { $0.pid == group }?.launch.bundleID
    }

    func add(_ process: ProcessPipes) {
        live[ObjectIdentifier(process)] = process
    }

    func remove(_ process: ProcessPipes) {
        live[ObjectIdentifier(process)] = nil
        if live.isEmpty {
            drained.forEach { $0.succeed(()) }
            drained.removeAll()
        }
    }

    /// SIGTERM to every process group, SIGKILL after `grace`; succeeds once all are reaped
    /// (or, should one never be, after `grace` plus a second).
    func stopAll(grace: TimeAmount = .seconds(2)) -> EventLoopFuture<Void> {
        eventLoop.preconditionInEventLoop()
        guard !live.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        let promise = eventLoop.makePromise(of: Void.self)
        drained.append(promise)
        for process in live.values { process.terminate(grace: grace) }
        eventLoop.scheduleTask(in: grace + .seconds(1)) { promise.succeed(()) }
        return promise.futureResult
    }
}
