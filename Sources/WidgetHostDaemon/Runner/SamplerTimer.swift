import Foundation
import NIOCore

/// The footprint sampler's timer of one extension, kept by `ExtensionSupervisor` between the
/// extension's processes: a `LoopTimer` is a timerfd and a NIO channel registered on the loop
/// (~90 k instructions to make and close, callgrind), which every cold start paid once before
/// (issue 16, figure 1). One process samples at a time — the one that armed it last; a process
/// that disarms it after another has taken it over leaves it alone. Confined to the event loop.
final class SamplerTimer: @unchecked Sendable {
    private let timer: LoopTimer
    private var owner: ObjectIdentifier?

    init(on eventLoop: any EventLoop) throws {
        timer = try LoopTimer(on: eventLoop)
    }

    /// Fires `sample` every `interval` for `process` until it disarms it or another process arms it.
    func arm(every interval: TimeInterval, for process: AnyObject, sample: @escaping () -> Void) {
        owner = ObjectIdentifier(process)
        timer.fired = sample
        timer.arm(every: interval)
    }

    /// Stops the sampling of `process`, if it is still the one sampling.
    func disarm(for process: AnyObject) {
        guard owner == ObjectIdentifier(process) else { return }
        owner = nil
        timer.fired = {}
        timer.disarm()
    }

    /// Whether `process` is the one sampling (tests).
    func isArmed(for process: AnyObject) -> Bool { owner == ObjectIdentifier(process) }

    /// Expiries handled so far (tests).
    var firings: Int { timer.firings }

    func close() {
        owner = nil
        timer.fired = {}
        timer.close()
    }
}
