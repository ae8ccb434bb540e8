import CSystemd
import Foundation
import NIOCore

/// systemd's software watchdog (`WatchdogSec=`): `WATCHDOG=1` every half interval, sent by a
/// task scheduled on the runtime's own event loop. A loop that is stuck (a blocking call,
/// an endless step) therefore stops pinging, and systemd restarts the service — which is
/// the point: a ping from a separate timer thread would prove only that the timer runs.
public final class SystemdWatchdog: Sendable {
    /// The interval systemd expects a ping within.
    public let interval: TimeAmount
    private let task: RepeatedTask

    /// The interval from `WATCHDOG_USEC` (and `WATCHDOG_PID`, which must be this process),
    /// through `sd_watchdog_enabled`; nil when no watchdog is configured.
    public static func configuredInterval() -> TimeAmount? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(clamping: usec))
    }

    /// The ping period for an interval: half of it, as sd_watchdog_enabled(3) advises.
    public static func pingPeriod(for interval: TimeAmount) -> TimeAmount {
        .nanoseconds(max(1, interval.nanoseconds / 2))
    }

    /// Starts pinging on `eventLoop`: one ping at once, then one every half `interval`.
    public init(interval: TimeAmount, on eventLoop: any EventLoop, notifier: SystemdNotifier = SystemdNotifier()) {
        self.interval = interval
        task = eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: Self.pingPeriod(for: interval)) { _ in
            notifier.notify(.watchdog)
        }
    }

    /// Starts the watchdog when systemd configured one; nil otherwise.
    public static func startIfConfigured(
        on eventLoop: any EventLoop, notifier: SystemdNotifier = SystemdNotifier()
    ) -> SystemdWatchdog? {
        configuredInterval().map { SystemdWatchdog(interval: $0, on: eventLoop, notifier: notifier) }
    }

    public func cancel() {
        task.cancel()
    }
}

extension EventLoop {
    /// Test hook: keeps this loop busy for `duration`, as a runaway step would. Nothing
    /// scheduled on it — watchdog pings included — runs until the block ends.
    func blockForTesting(_ duration: TimeAmount) {
        execute {
            let end = NIODeadline.now() + duration
            while NIODeadline.now() < end {
                usleep(UInt32(max(1, min((end - NIODeadline.now()).nanoseconds / 1_000, 100_000))))
            }
        }
    }
}
