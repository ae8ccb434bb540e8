import CSystemd
import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// A timer on the event loop that is really disarmed when cancelled: a `CLOCK_MONOTONIC`
/// timerfd read through NIO's selector (`DescriptorChannel`), armed once or periodically with
/// `timerfd_settime` and disarmed the same way.
///
/// NIO's own scheduled tasks cannot do this: its epoll selector re-arms its timerfd only for
/// an *earlier* deadline and never disarms it when a task is cancelled, so a cancelled task
/// that was the earliest still wakes the loop once at its time (docs/benchmarks.md, "host
/// wake-ups"). The runtime's deadline timer moves with every step (a request's timeout is
/// armed when it is sent and dropped when it is answered) and the footprint sampler starts
/// and stops with every round of requests; on this timer neither leaves a wake-up behind.
///
/// Confined to its event loop (the `@unchecked Sendable`); `fired` runs there, once per read
/// of the descriptor.
final class LoopTimer: @unchecked Sendable {
    let eventLoop: any EventLoop
    private let descriptor: CInt
    /// The timerfd read on the loop, until `close`.
    private let reader: KeptDescriptorChannel
    private var closed = false
    /// What the timer should be set to: when it expires next (monotonic nanoseconds) and its
    /// period (0: once).
    private var desired: (at: UInt64, period: UInt64)?
    /// What the kernel's timer is set to.
    private var applied: (at: UInt64, period: UInt64)?
    private var applyScheduled = false
    /// Runs on the loop each time the timer expired.
    var fired: () -> Void = {}
    /// How many times the timer woke the loop (tests count wake-ups with it).
    private(set) var firings = 0
    /// How many times the kernel's timer was set (`timerfd_settime`; tests count them).
    private(set) var settings = 0

    /// Must be called on `eventLoop`.
    init(on eventLoop: any EventLoop) throws {
        eventLoop.preconditionInEventLoop()
        self.eventLoop = eventLoop
        descriptor = timerfd_create(CLOCK_MONOTONIC, CInt(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { throw IOError(errnoCode: errno, reason: "timerfd_create") }
        reader = KeptDescriptorChannel(descriptor, on: eventLoop)
        reader.onRead = { [weak self] _ in self?.expired() }
        reader.open()
    }

    deinit {
        reader.close()
        Glibc.close(descriptor)
    }

    /// Fires once, `delay` seconds from now (at once if it is not positive).
    func arm(in delay: TimeInterval) {
        want((Self.monotonicNow() + Self.nanoseconds(max(delay, 0)), 0))
    }

    /// Fires every `interval` seconds, the first time one interval from now — or, if the
    /// kernel's timer still ticks at that period (disarmed and armed again within one turn of
    /// the loop, as the footprint sampler is between one reply and the next request) and its
    /// next tick is at least half an interval away, at that tick: the kernel's timer is left
    /// as it is, and the pair costs no `timerfd_settime`.
    func arm(every interval: TimeInterval) {
        let period = max(Self.nanoseconds(interval), 1)
        let now = Self.monotonicNow()
        if let applied, Self.keepsTicking(applied, period: period, now: now) {
            want(applied)
            return
        }
        want((now + period, period))
    }

    /// Whether a kernel timer set to `applied` serves `arm(every:)` with `period` at `now`:
    /// the same period, and its next tick half a period away or more (so that the first
    /// tick still comes no sooner than half an interval after arming).
    static func keepsTicking(_ applied: (at: UInt64, period: UInt64), period: UInt64, now: UInt64) -> Bool {
        guard applied.period == period, period > 0 else { return false }
        let next = applied.at > now ? applied.at : applied.at + ((now - applied.at) / period + 1) * period
        return next - now >= period / 2
    }

    /// No expiry until armed again; an expiry not yet handled is dropped too.
    func disarm() {
        want(nil)
    }

    /// Closes the descriptor's channel (shutdown).
    func close() {
        closed = true
        desired = nil
        reader.close()
    }

    /// The kernel's timer is set at the end of the loop's turn, once what the selector
    /// reported in it has been read: `timerfd_settime` drops an expiry not yet read, and NIO
    /// traps on a readable descriptor that then has nothing to read.
    private func want(_ state: (at: UInt64, period: UInt64)?) {
        desired = state
        guard !applyScheduled, !closed else { return }
        applyScheduled = true
        eventLoop.execute { [self] in
            applyScheduled = false
            apply()
        }
    }

    private func apply() {
        guard !closed, desired?.at != applied?.at || desired?.period != applied?.period else { return }
        applied = desired
        var spec = itimerspec()
        if let desired {
            spec.it_value = Self.spec(desired.at)
            spec.it_interval = Self.spec(desired.period)
        }
        timerfd_settime(descriptor, CInt(TFD_TIMER_ABSTIME), &spec, nil)
        settings += 1
    }

    private func expired() {
        guard let current = applied else { return }
        if current.period == 0 { applied = nil }
        // Re-armed or disarmed since (applied at the end of this turn): this expiry is stale.
        guard let wanted = desired, wanted.at == current.at, wanted.period == current.period else { return }
        if current.period == 0 { desired = nil }
        firings += 1
        fired()
    }

    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64((seconds * 1e9).rounded(.up))
    }

    private static func spec(_ nanoseconds: UInt64) -> timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
