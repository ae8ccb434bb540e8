import Foundation
import Logging
import NIOCore

/// The daemon's side of its contract with systemd (DESIGN.md "systemd"): `READY=1` once the
/// socket accepts connections and the plugins are loaded, a `STATUS=` line that follows the
/// core, `RELOADING=1`/`READY=1` around a rescan, `STOPPING=1` on the way out, the watchdog
/// pinged from the event loop, and the clock and time-zone watches that give the core its
/// significant time changes. Without systemd (no `NOTIFY_SOCKET`, no `WATCHDOG_USEC`) only
/// the time watches do anything.
///
/// Everything but `init` runs on the runtime's event loop; that confinement is the
/// `@unchecked Sendable`.
final class SystemdService: @unchecked Sendable {
    let notifier: SystemdNotifier
    let logger: Logger
    private var lastStatus: String?
    private var watchdog: SystemdWatchdog?
    private var timeChanges: TimeChangeMonitor?
    private var signalWatch: DescriptorWatch?

    init(notifier: SystemdNotifier = SystemdNotifier(), logger: Logger) {
        self.notifier = notifier
        self.logger = logger
    }

    /// Start-up finished: starts the watchdog and the time watches, sends `READY=1` with the
    /// first status line, and from then on a `STATUS=` whenever a step changes that line.
    func ready(runtime: HostRuntime, localtimePath: String) {
        runtime.eventLoop.preconditionInEventLoop()
        watchdog = SystemdWatchdog.startIfConfigured(on: runtime.eventLoop, notifier: notifier)
        if let interval = watchdog?.interval {
            logger.info("watchdog: pinging every \(SystemdWatchdog.pingPeriod(for: interval).nanoseconds / 1_000_000) ms")
        }
        watchTime(runtime: runtime, localtimePath: localtimePath)
        let status = runtime.statusLine
        lastStatus = status
        notifier.notify(.ready, .status(status))
        runtime.didStep = { [weak self, unowned runtime] in self?.statusChanged(runtime.statusLine) }
    }

    /// After a step: a new `STATUS=` only when the line changed.
    func statusChanged(_ line: String) {
        guard line != lastStatus else { return }
        lastStatus = line
        notifier.notify(.status(line))
    }

    /// A rescan begins (SIGHUP, `widgethost rescan`).
    func reloading() {
        notifier.notify(.reloading(monotonicMicroseconds: SystemdNotifier.monotonicMicroseconds()), .status("reloading"))
        lastStatus = "reloading"
    }

    /// The rescan finished, well or not: systemd waits for `READY=1` after `RELOADING=1`.
    func reloaded(status: String) {
        lastStatus = status
        notifier.notify(.ready, .status(status))
    }

    /// Shutting down: `STOPPING=1`; the watches stop, the watchdog pings on while draining.
    func stopping() {
        notifier.notify(.stopping, .status("stopping"))
        lastStatus = "stopping"
        timeChanges?.stop()
        timeChanges = nil
        signalWatch?.stop()
        signalWatch = nil
    }

    /// The loop is about to end.
    func stopped() {
        watchdog?.cancel()
        watchdog = nil
    }

    /// SIGTERM and SIGINT call `stop`, SIGHUP calls `reload`, on `eventLoop`.
    /// A second SIGTERM or SIGINT while stopping is ignored (the drain is already bounded).
    func handleSignals(on eventLoop: any EventLoop, stop: @escaping () -> Void, reload: @escaping () -> Void) {
        var stopRequested = false
        let stopOnce = {
            guard !stopRequested else { return }
            stopRequested = true
            stop()
        }
        let actions = UncheckedSendableBox([SIGTERM: stopOnce, SIGINT: stopOnce, SIGHUP: reload])
        eventLoop.execute { [self] in
            guard let pipe = SignalPipe.install([SIGTERM, SIGINT, SIGHUP]) else {
                logger.error("cannot install signal handlers (\(String(cString: strerror(errno)))); stop widgethostd with SIGKILL")
                return
            }
            let watched = DescriptorWatch.Watched(descriptor: pipe) {
                for signalNumber in SignalPipe.drain() {
                    eventLoop.execute { actions.value[signalNumber]?() }
                }
            }
            do {
                let watch = try DescriptorWatch([watched], unblocking: [SIGTERM, SIGINT, SIGHUP])
                watch.start(name: "widgethost.signals")
                signalWatch = watch
            } catch {
                logger.error("cannot watch for signals (\(error)); stop widgethostd with SIGKILL")
            }
        }
    }

    private func watchTime(runtime: HostRuntime, localtimePath: String) {
        let logger = logger
        do {
            let monitor = try TimeChangeMonitor(localtimePath: localtimePath, on: runtime.eventLoop) {
                [weak runtime] changes in
                let what = changes.map { $0 == .clockSet ? "wall clock set" : "time zone changed" }
                logger.notice(
                    "significant time change: \(what.joined(separator: ", "))",
                    metadata: ["TIME_CHANGE": "\(changes.map(\.rawValue).joined(separator: ","))"])
                runtime?.apply(.significantTimeChange)
            }
            try monitor.start()
            timeChanges = monitor
        } catch {
            logger.warning(
                "cannot watch for clock and time-zone changes (\(error)); widgets will reload at their usual times only")
        }
    }
}

/// Carries closures that are only ever called on the event loop across the Dispatch hop.
private struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
