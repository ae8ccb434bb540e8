import Foundation
import Logging
import NIOCore

/// The daemon's side of its contract with systemd (DESIGN.md "systemd"): `READY=1` once the
/// socket accepts connections and the plugins are loaded, a `STATUS=` line that follows the
/// core, `RELOADING=1`/`READY=1` around a rescan, `STOPPING=1` on the way out, and the
/// watchdog pinged from the event loop. Without systemd (no `NOTIFY_SOCKET`, no
/// `WATCHDOG_USEC`) it does nothing.
///
/// Everything but `init` runs on the runtime's event loop; that confinement is the
/// `@unchecked Sendable`.
final class SystemdService: @unchecked Sendable {
    let notifier: SystemdNotifier
    let logger: Logger
    private var lastStatus: String?
    private var watchdog: SystemdWatchdog?

    init(notifier: SystemdNotifier = SystemdNotifier(), logger: Logger) {
        self.notifier = notifier
        self.logger = logger
    }

    /// Start-up finished: starts the watchdog, sends `READY=1` with the first status line, and
    /// from then on a `STATUS=` whenever a step changes that line.
    func ready(runtime: HostRuntime) {
        runtime.eventLoop.preconditionInEventLoop()
        watchdog = SystemdWatchdog.startIfConfigured(on: runtime.eventLoop, notifier: notifier)
        if let interval = watchdog?.interval {
            logger.info("watchdog: pinging every \(SystemdWatchdog.pingPeriod(for: interval).nanoseconds / 1_000_000) ms")
        }
        let status = runtime.statusLine
        lastStatus = status
        notifier.notify(.ready, .status(status))
        // Without a service manager the line would be built after every step for nobody
        // (0.11 M instructions a warm reload, most of them its RFC 3339 deadline).
        guard notifier.isEnabled else { return }
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

    /// Shutting down: `STOPPING=1`; the watchdog pings on while draining.
    func stopping() {
        notifier.notify(.stopping, .status("stopping"))
        lastStatus = "stopping"
    }

    /// The loop is about to end.
    func stopped() {
        watchdog?.cancel()
        watchdog = nil
    }
}
