import Foundation
import NIOCore
import WidgetHostCore
import WidgetHostProtocol

extension HostRuntime {
    /// The `clock` method: reads the clock, or (on a virtual clock) advances it to the target,
    /// handling each of the core's deadlines on the way at its own instant and waiting for
    /// running extension requests before every jump.
    func advanceClock(_ params: ClockParams) throws -> EventLoopFuture<ClockResult> {
        eventLoop.preconditionInEventLoop()
        let target: Date?
        switch (params.advance, params.until) {
        case (nil, nil): target = nil
        case (let seconds?, nil):
            guard seconds >= 0, seconds.isFinite else {
                throw JSONRPCError.invalidParams("clock: advance must be a number of seconds ≥ 0, not \(seconds)")
            }
            target = now + seconds
        case (nil, let until?): target = until
        case (_?, _?): throw JSONRPCError.invalidParams("clock: give advance or until, not both")
        }
        guard let target else { return eventLoop.makeSucceededFuture(clockResult(handled: 0)) }
        guard let clock = clock as? VirtualClock else {
            throw JSONRPCError(
                code: JSONRPCError.requestRefusedCode,
                message: "this widgethostd runs on the wall clock; start it with --virtual-clock START to advance time")
        }
        guard target >= now else {
            throw JSONRPCError(
                code: JSONRPCError.requestRefusedCode,
                message: "the clock is already at \(RFC3339.format(now)); it only moves forward")
        }
        let promise = eventLoop.makePromise(of: ClockResult.self)
        step(toward: target, on: clock, handled: 0, promise: promise)
        return promise.futureResult
    }

    private func step(toward target: Date, on clock: VirtualClock, handled: Int, promise: EventLoopPromise<ClockResult>) {
        // A request in flight runs in real time; the clock jumps only once it has answered.
        if supervisor.hasRunningRequest {
            eventLoop.scheduleTask(in: .milliseconds(5)) { [self] in
                step(toward: target, on: clock, handled: handled, promise: promise)
            }
            return
        }
        if let deadline = host.nextDeadline, deadline <= target {
            clock.jump(to: deadline)
            apply(.deadlineReached)
            // Let replies and other events in before the next jump.
            eventLoop.execute { [self] in step(toward: target, on: clock, handled: handled + 1, promise: promise) }
            return
        }
        clock.jump(to: target)
        rearmTimer()
        promise.succeed(clockResult(handled: handled))
    }

    private func clockResult(handled: Int) -> ClockResult {
        ClockResult(now: now, virtual: clock is VirtualClock, deadlinesHandled: handled, nextDeadline: host.nextDeadline)
    }
}
