import Foundation
import NIOCore
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

extension HostRuntime {
    /// The `clock` method: reads the clock, or (on a virtual clock) advances it to the target,
    /// handling each of the core's deadlines on the way at its own instant and waiting for
    /// running extension requests before every jump (`HostDriver.advance`).
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
        // The driver jumps from deadline to deadline, and past a running request only once
        // the supervisor reports that it ended: no polling.
        driver.advance(clock, to: target) { [self] handled in
            rearmTimer()
            promise.succeed(clockResult(handled: handled))
        }
        return promise.futureResult
    }

    private func clockResult(handled: Int) -> ClockResult {
        ClockResult(now: now, virtual: clock is VirtualClock, deadlinesHandled: handled, nextDeadline: host.nextDeadline)
    }
}
