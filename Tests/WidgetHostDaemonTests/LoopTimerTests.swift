import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import WidgetHostDaemon

/// `LoopTimer` sets the kernel's timer only when what it should be set to changed, once per
/// turn of the loop: the footprint sampler's disarm on a reply and arm on the next request,
/// in one turn, make no `timerfd_settime` at all (issue 16: two of them per warm reload).
@Suite("Loop timer")
struct LoopTimerTests {
    /// Runs `body` as one task on the loop (one turn) and waits until the turn after it, when
    /// the timer has been set.
    private static func turn<T: Sendable>(_ loop: any EventLoop, _ body: @escaping @Sendable () -> T) throws -> T {
        let value = try loop.submit(body).wait()
        try loop.submit {}.wait()
        return value
    }

    @Test("Disarmed and armed again at the same period within one turn: the kernel's timer is left ticking")
    func sameTurnKeepsTicking() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let timer = try loop.submit { try LoopTimer(on: loop) }.wait()
        let ticks = Ticks()
        try Self.turn(loop) { timer.fired = { ticks.add() } }
        // A period long enough that the next turns come well within its first half.
        try Self.turn(loop) { timer.arm(every: 0.5) }
        #expect(try Self.turn(loop) { timer.settings } == 1)
        // A reply and the next request in one turn: no setting for the pair.
        try Self.turn(loop) {
            timer.disarm()
            timer.arm(every: 0.5)
        }
        #expect(try Self.turn(loop) { timer.settings } == 1)
        // …and the timer still fires, every period.
        #expect(ticks.wait(for: 2, timeout: 10))
        // A different period is set; a disarm in a turn of its own is set, and so is the arm after it.
        try Self.turn(loop) { timer.arm(every: 0.03) }
        #expect(try Self.turn(loop) { timer.settings } == 2)
        try Self.turn(loop) { timer.disarm() }
        try Self.turn(loop) { timer.arm(every: 0.03) }
        #expect(try Self.turn(loop) { timer.settings } == 4)
        try Self.turn(loop) {
            timer.disarm()
            timer.close()
        }
    }

    @Test("The kernel's timer is kept only at the same period with its next tick half a period away or more")
    func keepsTicking() {
        let ms: UInt64 = 1_000_000
        let applied = (at: 1_000 * ms, period: 50 * ms)
        // Before the first tick: kept while it is 25 ms away or more.
        #expect(LoopTimer.keepsTicking(applied, period: 50 * ms, now: 950 * ms))
        #expect(LoopTimer.keepsTicking(applied, period: 50 * ms, now: 975 * ms))
        #expect(!LoopTimer.keepsTicking(applied, period: 50 * ms, now: 976 * ms))
        // After ticks: the next one is counted from the first.
        #expect(LoopTimer.keepsTicking(applied, period: 50 * ms, now: 1_010 * ms))  // next at 1,050
        #expect(!LoopTimer.keepsTicking(applied, period: 50 * ms, now: 1_030 * ms))
        #expect(LoopTimer.keepsTicking(applied, period: 50 * ms, now: 1_100 * ms))  // a tick just now: next at 1,150
        #expect(LoopTimer.keepsTicking(applied, period: 50 * ms, now: 10_001 * ms))
        #expect(!LoopTimer.keepsTicking(applied, period: 50 * ms, now: 10_049 * ms))
        // Another period, or a one-shot timer: set again.
        #expect(!LoopTimer.keepsTicking(applied, period: 40 * ms, now: 950 * ms))
        #expect(!LoopTimer.keepsTicking((at: 1_000 * ms, period: 0), period: 50 * ms, now: 950 * ms))
    }

    @Test("Disarmed for good: it fires no more")
    func disarmStops() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let timer = try loop.submit { try LoopTimer(on: loop) }.wait()
        let ticks = Ticks()
        try Self.turn(loop) {
            timer.fired = { ticks.add() }
            timer.arm(every: 0.01)
        }
        #expect(ticks.wait(for: 2, timeout: 10))
        try Self.turn(loop) { timer.disarm() }
        let after = ticks.count
        // Several periods pass (the loop's own tasks, not a sleep in the test): no tick.
        let done = loop.scheduleTask(in: .milliseconds(60)) { ticks.count }
        #expect(try done.futureResult.wait() == after)
        try Self.turn(loop) { timer.close() }
    }
}

/// Ticks counted from the loop, waited for from the test.
private final class Ticks: @unchecked Sendable {
    private let condition = NSCondition()
    private var value = 0

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return value
    }

    func add() {
        condition.lock()
        value += 1
        condition.broadcast()
        condition.unlock()
    }

    func wait(for target: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date() + timeout
        condition.lock()
        defer { condition.unlock() }
        while value < target {
            if !condition.wait(until: deadline) { return value >= target }
        }
        return true
    }
}
