import Foundation
import Logging
import NIOCore

extension TimeChangeMonitor {
    /// The daemon's watch: each burst of changes is logged and becomes the core's
    /// significant time change (every widget gets an exempt reload, as in WidgetKit). Nil,
    /// with a warning, when the system does not let it watch: the daemon runs on without.
    static func significantTimeChanges(
        for runtime: HostRuntime, localtimePath: String, minimumJump: TimeInterval, logger: Logger
    ) -> EventLoopFuture<TimeChangeMonitor?> {
        let eventLoop = runtime.eventLoop
        let cannotWatch: @Sendable (any Error) -> Void = { error in
            logger.warning(
                "cannot watch for clock and time-zone changes (\(error)); widgets will reload at their usual times only")
        }
        let monitor: TimeChangeMonitor
        do {
            monitor = try TimeChangeMonitor(localtimePath: localtimePath, on: eventLoop, minimumJump: minimumJump) {
                [weak runtime] changes in
                let what = changes.map { $0 == .clockSet ? "wall clock set" : "time zone changed" }
                logger.notice(
                    "significant time change: \(what.joined(separator: ", "))",
                    metadata: ["TIME_CHANGE": "\(changes.map(\.rawValue).joined(separator: ","))"])
                runtime?.apply(.significantTimeChange)
            }
        } catch {
            cannotWatch(error)
            return eventLoop.makeSucceededFuture(nil)
        }
        return monitor.start().map { monitor }.recover { error in
            monitor.stop()
            cannotWatch(error)
            return nil
        }
    }
}
