import Foundation
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// The virtual-clock shell around the same `WidgetHost` the daemon runs, fed through the same
/// driver (`HostDriver`) with the harness's parts plugged in: a simulated clock, synthetic
/// providers and real bundles (`SimulationRunner`), no store, the report as notice sink. It
/// feeds the core the scenario's inputs and the core's own deadlines in time order, jumping
/// straight to the next one while no real process runs. Synthetic providers answer in
/// simulated time (`work` later); while a real extension runs, time moves at the real rate.
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
    private let clock: SimulationClock
    private let setup: SimulationSetup
    private let runner: SimulationRunner
    private let notices: RecordingSink
    private let driver: HostDriver

    public static func run(_ scenario: Scenario, options: Options = Options()) throws(HarnessError) -> SimulationResult {
        let clock = ContinuousClock()
        let started = clock.now
        var simulation = try Simulation(scenario: scenario, options: options)
        try simulation.runToEnd()
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return simulation.notices.recorder.result(
            host: simulation.driver.host, scenario: scenario, seed: simulation.seed, wallTime: seconds)
    }

    private var seed: UInt64 { options.seed ?? scenario.seed }

    private init(scenario: Scenario, options: Options) throws(HarnessError) {
        self.scenario = scenario
        self.options = options
        clock = SimulationClock(start: scenario.start)
        setup = try SimulationSetup(scenario: scenario)
        runner = SimulationRunner(setup: setup, clock: clock, limits: scenario.host.limits)
        notices = RecordingSink(SimulationRecorder(scenario: scenario, keepLog: options.keepEventLog))
        // Nothing is persisted: a simulation starts fresh and ends with its report.
        driver = HostDriver(
            host: WidgetHost(configuration: scenario.host), clock: clock, runner: runner, store: nil, notices: notices)
        runner.report = { [weak driver] in driver?.report($0) }
    }

    private mutating func runToEnd() throws(HarnessError) {
        handle(.hostStarted(bootID: "simulation"))
        handle(.catalogChanged(ActivityDriving.descriptors(setup.descriptors, scenario: scenario)))
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
                notices.recorder.source[WidgetID(result.widget.id)] = setup.sourceName(of: widget)
            }
            added.append((widget, ids))
        }
        try setup.checkSchedules(host: driver.host)
        let inputs = ScenarioSchedule(scenario).inputs(widgets: added, seed: seed)
        var next = 0
        var steps = 0
        let end = scenario.end
        while true {
            let input = next < inputs.count ? inputs[next].at : nil
            // The earliest of the three (no array per turn: this runs once per event).
            var due = runner.nextReplyAt
            if let deadline = driver.nextDeadline { due = due.map { min($0, deadline) } ?? deadline }
            if let input { due = due.map { min($0, input) } ?? input }
            if runner.isRunningRealProcess {
                // Simulated time runs at the real rate until the next thing due.
                if runner.waitForRealProcesses(until: min(due ?? end, end)) { continue }
                if clock.now >= end { break }
            } else {
                guard let due, due < end else { break }
                clock.jump(to: due)
            }
            // Ties: replies first, then the core's deadline, then the scenario's input.
            if !runner.deliverDueReply() {
                if let deadline = driver.nextDeadline, deadline <= clock.now {
                    handle(.deadlineReached)
                } else if let input, input <= clock.now {
                    apply(inputs[next])
                    next += 1
                }
            }
            steps += 1
            if steps % 4096 == 0, let progress = options.progress {
                progress(clock.now, clock.now.timeIntervalSince(scenario.start) / scenario.duration)
            }
        }
        runner.stopAll()
        clock.jump(to: end)
        options.progress?(end, 1)
    }

    private var lastRefusal: HostError?
    /// What a tap without a button runs.
    static let tapIntent = IntentInvocation(type: "Tap", title: "Tap")
    /// Which activity each `[[activity]]` started, and its push token.
    private var activities = ActivityDriving()

    /// Feeds one event at the simulated now; the driver executes the effects.
    @discardableResult
    private mutating func handle(_ event: HostEvent) -> HostReply? {
        let reply = driver.handle(event)
        if case .refused(let error)? = reply { lastRefusal = error }
        return reply
    }

    private mutating func apply(_ input: ScenarioInput) {
        switch input.action {
        case .reload(let app, let kind, let foreground):
            let target: ReloadRequest.Target = kind.map { .kind($0, app: app) } ?? .allOfApp(app)
            let reply = handle(.reloadRequested(ReloadRequest(target, origin: foreground ? .foreground : .background)))
            notices.recorder.requested(at: clock.now, app: app, kind: kind, foreground: foreground, reply: reply)
        case .view(let id):
            handle(.viewRecorded(id))
            notices.recorder.viewed(id, at: clock.now)
        case .tap(let id, let button):
            // A synthetic provider draws no button: its tap runs an intent by name.
            let reply = handle(.tapped(TapRequest(widget: id, button: button, intent: button == nil ? Self.tapIntent : nil)))
            notices.recorder.interacted("widgetTapped", widget: id, reply: reply, at: clock.now)
        case .configure(let id):
            // The user opens the widget's editor and saves it as it is.
            let reply = handle(.widgetConfigured(id, [:]))
            notices.recorder.interacted("widgetConfigured", widget: id, reply: reply, at: clock.now)
        case .device(let index):
            let change = scenario.deviceChanges[index]
            let reply = handle(.deviceChanged(DeviceSettings(locale: change.locale, dynamicTypeSize: change.textSize)))
            notices.recorder.interacted("deviceChanged", widget: nil, reply: reply, at: clock.now)
        case .activityStart, .activityUpdate, .activityPush, .activityEnd, .widgetPush:
            if let command = activities.command(for: input.action, scenario: scenario, host: driver.host, at: clock.now) {
                let reply = handle(.activity(command))
                activities.record(reply, for: input.action)
                notices.recorder.activityInput(input.action, command: command, reply: reply, at: clock.now)
            }
        }
    }
}

extension ExtensionRequest.Call {
    var kind: String {
        switch self {
        case .placeholder(let params): params.kind
        case .snapshot(let params): params.kind
        case .timeline(let params): params.kind
        case .perform(let params): params.kind
        case .options(let params): params.kind
        case .controlValue(let params): params.kind
        case .activityRender(let params): params.attributesType
        }
    }
}
