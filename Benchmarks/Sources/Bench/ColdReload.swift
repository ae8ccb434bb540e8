import Foundation
import SeededRandom
import WidgetHostBundles
import WidgetHostCore
import WidgetHostRunner

/// Figure 1, cold: the daemon's cold reload and its floors, measured interleaved.
///
/// Each round times one of every kind — the plain floor (spawn, `timeline/get`, its reply),
/// the floor with the `initialize` the daemon pipelines ahead, the floor started as the daemon
/// starts it, the same confined as the daemon confines it, a cold reload through the confined
/// daemon and one through a daemon with `limits.sandbox = "off"` — in an order drawn afresh
/// for each round from a fixed seed. Measured one kind after another in blocks of 150 (before
/// 27 Nov), the median of a block moved by ±2.5 ms with whatever else the machine was doing in that second
/// of the run, and that landed on one kind's row: the "+2 ms for `initialize`" of three quiet
/// runs (the extension spends 0.1 ms on it) and the unconfined daemon 2.4–2.7 ms slower than
/// the confined one (docs/benchmarks.md, "Reload latency, profiled" → "Cold").
enum ColdReload {
    enum Kind: Int, CaseIterable {
        case floor, floorInitialize, floorAsDaemon, floorConfined, daemon, daemonUnconfined
    }

    struct Samples {
        var byKind: [Kind: Sample] = [:]
        /// Per round, each kind's time over the plain floor's in the same round.
        var pairedRatios: [Kind: Sample] = [:]

        subscript(kind: Kind) -> Sample { byKind[kind] ?? Sample() }
    }

    /// `iterations` rounds after `warmup` uncounted ones. `launch`: the bench bundle as the
    /// daemon launches it (every floor runs its executable, the copy the daemons run too).
    static func measure(
        iterations: Int, warmup: Int = 5, launch: ExtensionLaunch, confined: DaemonProcess,
        unconfined: DaemonProcess
    ) throws -> Samples {
        let confinedReloads = try DaemonReloads(confined, cold: true)
        defer { confinedReloads.close() }
        let unconfinedReloads = try DaemonReloads(unconfined, cold: true)
        defer { unconfinedReloads.close() }
        let sandboxed = ProcessSpawner.sandboxed(HostConfiguration.default.limits)
        let plain = ProcessSpawner()
        var samples = Samples()
        // Each round in its own order, drawn from a fixed seed: in an order that only rotates,
        // the plain floor followed the unconfined daemon in five rounds of six and carried what
        // a daemon round leaves to the kernel after it (0.95-0.96x for the floors that do more,
        // 27 Nov 15:00), which flattered every ratio over it.
        var generator = SeededGenerator(seed: 0x5EED_C01D)
        for round in 0..<(iterations + warmup) {
            var times: [Kind: Double] = [:]
            for kind in Kind.allCases.shuffled(using: &generator) {
                times[kind] =
                    switch kind {
                    case .floor: try ReloadLatency.spawnAndAnswerOnce(launch.executable, initialize: false)
                    case .floorInitialize: try ReloadLatency.spawnAndAnswerOnce(launch.executable, initialize: true)
                    case .floorAsDaemon: try ReloadLatency.spawnAsDaemonAndAnswerOnce(launch, spawner: plain)
                    case .floorConfined: try ReloadLatency.spawnAsDaemonAndAnswerOnce(launch, spawner: sandboxed)
                    case .daemon: try confinedReloads.once()
                    case .daemonUnconfined: try unconfinedReloads.once()
                    }
            }
            guard round >= warmup, let floor = times[.floor] else { continue }
            for (kind, time) in times {
                samples.byKind[kind, default: Sample()].add(time)
                samples.pairedRatios[kind, default: Sample()].add(time / floor)
            }
        }
        return samples
    }
}

/// Reloads through one daemon: `reloadTimelines {kind: BenchWidget}` for its one widget, timed
/// until the `entryChanged` notice with the new serial arrives. `cold`: the daemon's extension
/// stops after every reply (`extension.idle_timeout = 0s`), and each reload then waits, untimed,
/// until the daemon says `extensionStopped` and the process has exited.
final class DaemonReloads {
    private let daemon: DaemonProcess
    private let cold: Bool
    private let subscription: Subscription
    private let control: LineChannel
    private var last: String?
    private var requestID = 0

    init(_ daemon: DaemonProcess, cold: Bool) throws {
        self.daemon = daemon
        self.cold = cold
        subscription = try Subscription(socket: daemon.socket)
        let ids = try daemon.addWidgets(1, kind: "BenchWidget")
        last = try subscription.next(.entryChanged) { $0.widgetId == ids[0] && ($0.serial ?? 0) > 0 }.notice.identity
        control = try LineChannel(connectingTo: daemon.socket)
        if cold { try waitForStop() }
    }

    func close() {
        control.close()
        subscription.close()
    }

    /// One reload, in microseconds.
    func once() throws -> Double {
        requestID += 1
        let request =
            #"{"jsonrpc":"2.0","id":\#(requestID),"method":"reloadTimelines","params":{"kind":"BenchWidget"}}"# + "\n"
        let start = monotonicSeconds()
        try control.write(request)
        let (notice, arrived) = try subscription.next(.entryChanged) { ($0.serial ?? 0) > 0 }
        let reply = try control.readString()
        guard reply.contains("\"started\"") else { throw BenchError("reload not started: \(reply)") }
        guard notice.identity != last else { throw BenchError("entryChanged carried the old serial") }
        last = notice.identity
        if cold { try waitForStop() }
        return (arrived - start) * 1e6
    }

    /// Until `extensionStopped`, then until the stopped process has exited and the daemon
    /// has reaped it and gone quiet, so that the next kind (the daemon's or a floor's) does not
    /// compete with either. The kernel takes the process off the daemon's list of children
    /// before it has finished releasing it: the rest of that work (its `/proc` entries, 0.1–8 ms
    /// on this machine, measured with `perf`) runs in the daemon's `wait4` after the list is
    /// empty, so the daemon must also have run for no more than 20 µs over one millisecond.
    private func waitForStop() throws {
        _ = try subscription.next(.extensionStopped)
        let deadline = monotonicSeconds() + 2
        while monotonicSeconds() < deadline, !Proc.children(of: daemon.pid).isEmpty {
            usleep(1_000)
        }
        var ran = Proc.runNanoseconds(daemon.pid) ?? 0
        while monotonicSeconds() < deadline {
            usleep(1_000)
            let now = Proc.runNanoseconds(daemon.pid) ?? 0
            if now &- ran <= 20_000 { return }
            ran = now
        }
    }
}
