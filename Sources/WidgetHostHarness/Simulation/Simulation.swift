import DequeModule
import Foundation
import HeapModule
import WidgetHostCore
import WidgetHostProtocol

/// The virtual-clock shell around the same `WidgetHost` the daemon runs: it feeds the core
/// the scenario's inputs and the core's own deadlines in time order, jumping straight to the
/// next one whenever no extension request is running. Synthetic providers answer at virtual
/// time (`work` later); real extensions run for real, and the clock moves by what they took.
public struct Simulation {
    public struct Options: Sendable {
        /// Overrides `simulation.seed`.
        public var seed: UInt64?
        /// Keep every event for `--json` (the figures never need it).
        public var keepEventLog = true
        /// Called now and then with the virtual time reached and the share of the period done.
        public var progress: (@Sendable (Date, Double) -> Void)?

        public init(seed: UInt64? = nil, keepEventLog: Bool = true, progress: (@Sendable (Date, Double) -> Void)? = nil) {
            self.seed = seed
            self.keepEventLog = keepEventLog
            self.progress = progress
        }
    }

    let scenario: Scenario
    let options: Options
    private var host: WidgetHost
    private var now: Date
    private var setup: SimulationSetup
    /// Synthetic replies (and real ones, at start + elapsed) waiting for their virtual time.
    private var replies = Heap<TimedEvent>()
    private var effects = Deque<HostEffect>()
    private var sequence = 0
    private var recorder: SimulationRecorder

    public static func run(_ scenario: Scenario, options: Options = Options()) throws(HarnessError) -> SimulationResult {
        let clock = ContinuousClock()
        let started = clock.now
        var simulation = try Simulation(scenario: scenario, options: options)
        try simulation.runToEnd()
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return simulation.recorder.result(host: simulation.host, scenario: scenario, seed: simulation.seed, wallTime: seconds)
    }

    private var seed: UInt64 { options.seed ?? scenario.seed }

    private init(scenario: Scenario, options: Options) throws(HarnessError) {
        self.scenario = scenario
        self.options = options
        host = WidgetHost(configuration: scenario.host)
        now = scenario.start
        setup = try SimulationSetup(scenario: scenario)
        recorder = SimulationRecorder(scenario: scenario, keepLog: options.keepEventLog)
    }

    private mutating func runToEnd() throws(HarnessError) {
        handle(.hostStarted(bootID: "simulation"))
        handle(.catalogChanged(setup.descriptors))
        var added: [(ScenarioWidget, [WidgetID])] = []
        for widget in scenario.widgets {
            var ids: [WidgetID] = []
            for _ in 0..<widget.count {
                let request = AddWidgetRequest(
                    kind: widget.kind, family: widget.family, app: setup.app(of: widget), pinnedBudget: widget.budget)
                guard case .widgetAdded(let result)? = handle(.widgetAdded(request)) else {
                    let reason = lastRefusal.map { "\($0)" } ?? "refused"
                    throw HarnessError("\(scenario.file):\(widget.line): widget \(widget.kind): \(reason)")
                }
                ids.append(WidgetID(result.widget.id))
                recorder.source[WidgetID(result.widget.id)] = setup.sourceName(of: widget)
            }
            added.append((widget, ids))
        }
        try setup.checkSchedules(host: host)
        let inputs = ScenarioSchedule(scenario).inputs(widgets: added, seed: seed)
        var next = 0
        var steps = 0
        let end = scenario.end
        while true {
            let input = next < inputs.count ? inputs[next].at : nil
            let reply = replies.min?.at
            let deadline = host.nextDeadline
            guard let time = [reply, deadline, input].compactMap({ $0 }).min(), time < end else { break }
            now = max(now, time)
            if let reply, reply == time, let event = replies.popMin() {
                handle(event.event)
            } else if let deadline, deadline == time {
                handle(.deadlineReached)
            } else {
                apply(inputs[next])
                next += 1
            }
            steps += 1
            if steps % 4096 == 0, let progress = options.progress {
                progress(now, now.timeIntervalSince(scenario.start) / scenario.duration)
            }
        }
        now = max(now, end)
        options.progress?(end, 1)
    }

    private var lastRefusal: HostError?

    /// Feeds one event at `now` and executes the effects (which may feed more).
    @discardableResult
    private mutating func handle(_ event: HostEvent) -> HostReply? {
        let step = host.handle(event, at: now)
        if case .refused(let error)? = step.reply { lastRefusal = error }
        effects.append(contentsOf: step.effects)
        drainEffects()
        return step.reply
    }

    private mutating func apply(_ input: ScenarioInput) {
        switch input.action {
        case .reload(let app, let kind, let foreground):
            let target: ReloadRequest.Target = kind.map { .kind($0, app: app) } ?? .allOfApp(app)
            let reply = handle(.reloadRequested(ReloadRequest(target, origin: foreground ? .foreground : .background)))
            recorder.requested(at: now, app: app, kind: kind, foreground: foreground, reply: reply)
        case .view(let id):
            handle(.viewRecorded(id))
            recorder.viewed(id, at: now)
        }
    }

    private mutating func drainEffects() {
        while let effect = effects.popFirst() {
            switch effect {
            case .send(let request): send(request)
            case .notice(let notice): recorder.record(notice)
            // Processes live for one request here; nothing stays running to kill or stop.
            case .kill, .terminate, .persist: break
            }
        }
    }

    private mutating func send(_ request: ExtensionRequest) {
        switch setup.source(of: request.extension, kind: request.call.kind) {
        case .provider(let provider):
            let reply = provider.answer(request.call, at: now)
            let footprint: Int? = if case .timeline = request.call { provider.footprint } else { nil }
            schedule(.extensionReplied(request.id, reply, footprintBytes: footprint), at: now + provider.work)
        case .bundle(let bundle):
            runReal(request, on: bundle)
        case nil:
            schedule(.extensionFailed(request.id, .crashed("no provider for \(request.extension)")), at: now)
        }
    }

    /// Runs a real process now. Its samples go to the core as they are taken, at start +
    /// elapsed, so a breach is the core's to judge; the reply arrives at start + elapsed.
    private mutating func runReal(_ request: ExtensionRequest, on bundle: FakeTimeExtension) {
        let start = now
        let timeout = request.deadline.timeIntervalSince(start)
        var killed = false
        let (outcome, elapsed) = bundle.perform(
            request, at: start, timeout: timeout, sampleInterval: host.configuration.limits.memorySampleInterval
        ) { bytes, elapsed in
            now = max(now, start + elapsed)
            let step = host.handle(.footprintSampled(request.id, bytes: bytes), at: now)
            effects.append(contentsOf: step.effects)
            killed = step.effects.contains { if case .kill(request.extension, _) = $0 { true } else { false } }
            return !killed
        }
        switch outcome {
        case .replied(let reply, let footprint):
            schedule(.extensionReplied(request.id, reply, footprintBytes: footprint), at: max(now, start + elapsed))
        case .failed(let failure):
            schedule(.extensionFailed(request.id, failure), at: max(now, start + elapsed))
        case .stopped:
            // Killed after a sample (the core has decided already) or at the deadline, which
            // the core reaches by itself as the clock moves on.
            break
        }
    }

    private mutating func schedule(_ event: HostEvent, at time: Date) {
        sequence += 1
        replies.insert(TimedEvent(at: time, sequence: sequence, event: event))
    }
}

/// An event waiting for its virtual time; ties in the order they were made.
struct TimedEvent: Comparable {
    var at: Date
    var sequence: Int
    var event: HostEvent

    static func < (lhs: TimedEvent, rhs: TimedEvent) -> Bool { (lhs.at, lhs.sequence) < (rhs.at, rhs.sequence) }
    static func == (lhs: TimedEvent, rhs: TimedEvent) -> Bool { lhs.sequence == rhs.sequence }
}

extension ExtensionRequest.Call {
    var kind: String {
        switch self {
        case .placeholder(let params): params.kind
        case .snapshot(let params): params.kind
        case .timeline(let params): params.kind
        }
    }
}
