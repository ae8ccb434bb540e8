import Foundation
import HeapModule
import WidgetHostCore
import WidgetHostDriver
import WidgetHostRunner

/// The harness's `ExtensionRunner`. Synthetic providers answer in simulated time (`work`
/// later); real bundles run for real on the runner's synchronous face, one process per
/// request started under libfaketime at the simulated now, with real deadlines and memory
/// samples. While a real process runs, simulated time moves at the real rate. What a
/// sample or a silence means is the core's decision; this only reports.
final class SimulationRunner: ExtensionRunner {
    private struct RealRun {
        var request: ExtensionRequest
        var process: ExtensionProcess
    }

    private let setup: SimulationSetup
    private let clock: SimulationClock
    private let limits: ExtensionLimits
    /// Where what the extensions did goes (the driver).
    var report: (HostEvent) -> Void = { _ in }
    /// Synthetic replies waiting for their simulated time.
    private var replies = Heap<TimedEvent>()
    private var sequence = 0
    private var real: [String: RealRun] = [:]

    init(setup: SimulationSetup, clock: SimulationClock, limits: ExtensionLimits) {
        self.setup = setup
        self.clock = clock
        self.limits = limits
    }

    // MARK: - ExtensionRunner

    /// The last source looked up: a run sends mostly to one extension and kind.
    private var lastSource: (extension: String, kind: String, source: SimulationSetup.Source?)?

    private func source(of ext: String, kind: String) -> SimulationSetup.Source? {
        if let lastSource, lastSource.extension == ext, lastSource.kind == kind { return lastSource.source }
        let source = setup.source(of: ext, kind: kind)
        lastSource = (ext, kind, source)
        return source
    }

    func send(_ request: ExtensionRequest) {
        let now = clock.now
        switch source(of: request.extension, kind: request.call.kind) {
        case .provider(let provider):
            let reply = provider.answer(request.call, at: now)
            let footprint: Int? = if case .timeline = request.call { provider.footprint } else { nil }
            schedule(.extensionReplied(request.id, reply, footprintBytes: footprint), at: now + provider.work)
        case .bundle(let bundle):
            do {
                let process = try ExtensionProcess.start(
                    bundle.launch(at: now), limits: limits, sampleInterval: limits.memorySampleInterval)
                process.send(request.id, request.call)
                real[request.extension] = RealRun(request: request, process: process)
            } catch {
                report(.extensionFailed(request.id, .crashed(error.description)))
            }
        case nil:
            report(.extensionFailed(request.id, .crashed("no provider for \(request.extension)")))
        }
    }

    func kill(_ extension: String) {
        real.removeValue(forKey: `extension`)?.process.kill()
    }

    /// Processes live for one request here; one still running is stopped all the same.
    func terminate(_ extension: String) {
        kill(`extension`)
    }

    var hasRunningRequest: Bool { !real.isEmpty || !replies.isEmpty }

    // MARK: - Simulated time

    /// A real process is running: simulated time moves at the real rate.
    var isRunningRealProcess: Bool { !real.isEmpty }

    /// When the next synthetic reply is due.
    var nextReplyAt: Date? { replies.min?.at }

    /// Reports the next synthetic reply if it is due.
    func deliverDueReply() -> Bool {
        guard let next = replies.min, next.at <= clock.now, let due = replies.popMin() else { return false }
        report(due.event)
        return true
    }

    /// Waits for the real processes until simulated `bound`, moving the clock by the real
    /// time that passes, and reports the first thing one of them did. False when `bound`
    /// came first (the clock is then at `bound`).
    func waitForRealProcesses(until bound: Date) -> Bool {
        let runs = real.values.sorted { $0.request.id < $1.request.id }
        let started = ContinuousClock.now
        let from = clock.now
        let limit = started + .nanoseconds(Int64(max(0, bound.timeIntervalSince(from)) * 1_000_000_000))
        let next = ExtensionProcess.next(among: runs.map(\.process), until: limit)
        clock.jump(to: from + ExtensionProcess.seconds(started.duration(to: .now)))
        guard let (process, event) = next, let run = runs.first(where: { $0.process === process }) else {
            clock.jump(to: bound)
            return false
        }
        let ext = run.request.extension
        switch event {
        case .replied, .failed:
            // Each process serves one request: it ends before the core hears the answer,
            // which may send the extension its next request.
            real[ext] = nil
            process.finish()
        case .stopped, .exited:
            real[ext] = nil
        case .sampled, .initialized, .stderr, .note:
            break
        }
        if let hostEvent = event.hostEvent(running: run.request.id) { report(hostEvent) }
        return true
    }

    /// The end of the simulation: whatever still runs is killed.
    func stopAll() {
        for run in real.values { run.process.kill() }
        real.removeAll()
    }

    private func schedule(_ event: HostEvent, at time: Date) {
        sequence += 1
        replies.insert(TimedEvent(at: time, sequence: sequence, event: event))
    }
}

/// An event waiting for its simulated time; ties in the order they were made.
struct TimedEvent: Comparable {
    var at: Date
    var sequence: Int
    var event: HostEvent

    static func < (lhs: TimedEvent, rhs: TimedEvent) -> Bool { (lhs.at, lhs.sequence) < (rhs.at, rhs.sequence) }
    static func == (lhs: TimedEvent, rhs: TimedEvent) -> Bool { lhs.sequence == rhs.sequence }
}
