import Foundation
import Logging
import NIOCore
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// The one owner of the core in the daemon: the driver (`HostDriver`) with the daemon's
/// parts plugged in — the clock, the extension supervisor on the event loop, the state
/// store, this as the notice sink — and one timer at the core's next deadline, re-armed after
/// each step and disarmed when nothing is due (`LoopTimer`), so no periodic wake-ups and no
/// wake-up for a deadline that went away. Everything runs on one event loop (the control socket and the
/// extension pipes share it), so the core sees events in a single order without locks; the
/// `@unchecked Sendable` is that confinement, checked by `preconditionInEventLoop`.
public final class HostRuntime: @unchecked Sendable, NoticeSink {
    public let eventLoop: any EventLoop
    let clock: any HostClock
    let logger: Logger
    let supervisor: ExtensionSupervisor
    private(set) var driver: HostDriver!
    /// The timer at the core's next deadline (created on the loop at the first arming).
    private var timer: LoopTimer?
    /// NIO's task instead, if no timerfd could be had.
    private var fallbackTimer: Scheduled<Void>?
    private var timerDeadline: Date?
    private var stopped = false
    /// How many times the deadline timer fired (tests: reloads due at one instant take one).
    var timerFirings: Int { timer?.firings ?? 0 }
    private var subscribers: [Int: Subscriber] = [:]
    /// Subscribers written to since the last `flush()`, in subscription order.
    private var unflushedSubscribers: [Int] = []
    private var nextSubscriberID = 1
    /// `status`'s encoded result between steps (`StatusReplyCache`).
    let statusCache = StatusReplyCache()
    /// Every loaded extension's sandbox as the last `status` without an id had them.
    private var keptSandboxes: (generation: UInt64, value: [ExtensionStatus])?
    /// The last scan's result, for `extensions`.
    var catalog = ExtensionsResult(loaded: [], skipped: []) {
        didSet { statusCache.invalidate() }
    }
    /// Called after every step (the systemd STATUS line, tests).
    var didStep: () -> Void = {}
    /// Called with each control request's method and how long it took to answer, in
    /// seconds (the dashboard's latency histogram); nil without a dashboard.
    var controlRequestObserved: ((String, Double) -> Void)?
    /// Clients waiting for a command the core answers later, by the request id it named.
    private var waitingAnswers: [RequestID: EventLoopPromise<HostReply>] = [:]
    /// Answers that came while the command that asks for them was still being applied.
    private var earlyAnswers: [RequestID: HostReply] = [:]

    init(host: WidgetHost, clock: any HostClock, store: (any StateStore)?, eventLoop: any EventLoop, logger: Logger) {
        self.clock = clock
        self.eventLoop = eventLoop
        self.logger = logger
        self.supervisor = ExtensionSupervisor(
            eventLoop: eventLoop, limits: host.configuration.limits, logger: logger)
        driver = HostDriver(host: host, clock: clock, runner: supervisor, store: store, notices: self)
        supervisor.report = { [unowned self] event in driver.report(event) }
        supervisor.batch = { [unowned self] body in driver.batch(body) }
        driver.didStep = { [unowned self] in
            statusCache.invalidate()
            armTimer()
            didStep()
        }
        driver.storeFailed = { [logger] error in logger.error("could not save state: \(error)") }
        driver.answered = { [unowned self] id, reply in
            if let promise = waitingAnswers.removeValue(forKey: id) {
                promise.succeed(reply)
            } else {
                earlyAnswers[id] = reply
            }
        }
    }

    /// The core's later answer to a command it answered `.answerLater(id)`.
    func answer(to id: RequestID) -> EventLoopFuture<HostReply> {
        eventLoop.preconditionInEventLoop()
        if let reply = earlyAnswers.removeValue(forKey: id) { return eventLoop.makeSucceededFuture(reply) }
        let promise = eventLoop.makePromise(of: HostReply.self)
        waitingAnswers[id] = promise
        return promise.futureResult
    }

    var host: WidgetHost { driver.host }
    var configuration: HostConfiguration { host.configuration }
    var now: Date { clock.now }

    // MARK: - Feeding the core

    /// Handles one event now and executes its effects; returns the reply for commands.
    @discardableResult
    func apply(_ event: HostEvent) -> HostReply? {
        eventLoop.preconditionInEventLoop()
        return driver.handle(event)
    }

    /// Several events handled at once (the lines of one read) in one transaction, committed
    /// before any of their effects leave (`HostDriver.batch`). The caller holds its own
    /// replies until this returns.
    func batch<T>(_ body: () throws -> T) rethrows -> T {
        eventLoop.preconditionInEventLoop()
        return try driver.batch(body)
    }

    /// After the virtual clock jumped, the timer's real delay is wrong: set it again.
    func rearmTimer() {
        timerDeadline = nil
        armTimer()
    }

    /// One timer, at the core's next deadline; disarmed while nothing is scheduled. Armed
    /// once per step at most (after the step and everything it caused), whatever the step did.
    private func armTimer() {
        guard !stopped else { return }
        let deadline = host.nextDeadline
        guard deadline != timerDeadline else { return }
        timerDeadline = deadline
        fallbackTimer?.cancel()
        fallbackTimer = nil
        guard let deadline else {
            timer?.disarm()
            return
        }
        let delay = max(0, deadline.timeIntervalSince(clock.now))
        if timer == nil, let made = try? LoopTimer(on: eventLoop) {
            made.fired = { [unowned self] in deadlineReached() }
            timer = made
        }
        if let timer {
            timer.arm(in: delay)
        } else {
            fallbackTimer = eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1_000_000_000))) { [weak self] in
                self?.deadlineReached()
            }
        }
    }

    private func deadlineReached() {
        timerDeadline = nil
        apply(.deadlineReached)
    }

    // MARK: - Notices

    /// A subscriber's handler, and what writes out what it held back (nil: it holds nothing).
    private struct Subscriber {
        var handler: (PublishedNotice) -> Void
        var flush: (() -> Void)?
    }

    public func publish(_ notice: HostNotice) {
        log(notice)
        guard !subscribers.isEmpty else { return }
        let published = PublishedNotice(notice)
        if subscribers.count == 1, let (id, subscriber) = subscribers.first {
            // One subscriber (the usual case): no order to keep, nothing to look up again
            // (sorting the ids and looking each up cost ~500 instructions a notice, callgrind).
            deliver(published, to: subscriber, id: id)
            return
        }
        for id in subscribers.keys.sorted() {
            guard let subscriber = subscribers[id] else { continue }
            deliver(published, to: subscriber, id: id)
        }
    }

    private func deliver(_ published: PublishedNotice, to subscriber: Subscriber, id: Int) {
        subscriber.handler(published)
        if subscriber.flush != nil, !unflushedSubscribers.contains(id) { unflushedSubscribers.append(id) }
    }

    /// The step's notices are all published (`HostDriver`): each subscriber that held them
    /// back writes them out now, in one write.
    public func flush() {
        guard !unflushedSubscribers.isEmpty else { return }
        let ids = unflushedSubscribers
        unflushedSubscribers.removeAll(keepingCapacity: true)
        for id in ids { subscribers[id]?.flush?() }
    }

    /// `handler` gets every notice from now on, with its `event` line encoded once for all
    /// subscribers (`PublishedNotice`). With `flush`, the handler may hold what it writes
    /// until `flush` is called, once the step that published it has executed all its effects
    /// (a connection writes a step's notices in one write).
    func subscribe(flush: (() -> Void)? = nil, _ handler: @escaping (PublishedNotice) -> Void) -> Int {
        eventLoop.preconditionInEventLoop()
        let id = nextSubscriberID
        nextSubscriberID += 1
        subscribers[id] = Subscriber(handler: handler, flush: flush)
        return id
    }

    func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    // MARK: - Queries

    func status(of id: String?) -> Result<StatusResult, HostError> {
        let now = clock.now
        return host.status(of: id.map { WidgetID($0) }, at: now).map { widgets in
            StatusResult(now: now, widgets: widgets, extensions: sandboxes(of: widgets, id: id))
        }
    }

    /// `sandboxes(of:id:)`, kept between steps when no id narrows it: then it depends on
    /// the catalog alone, and a new catalog, like every step, ends the cache's generation.
    private func everySandbox(of widgets: [WidgetStatus], id: String?) -> [ExtensionStatus] {
        guard id == nil else { return sandboxes(of: widgets, id: id) }
        if let kept = keptSandboxes, kept.generation == statusCache.generation { return kept.value }
        let value = sandboxes(of: widgets, id: nil)
        keptSandboxes = (statusCache.generation, value)
        return value
    }

    /// Every loaded extension's sandbox; with an id, that widget's extension's.
    func sandboxes(of widgets: [WidgetStatus], id: String?) -> [ExtensionStatus] {
        let shown = Set(widgets.map(\.widget.extension))
        return catalog.loaded.compactMap { loaded in
            loaded.sandbox.map { ExtensionStatus(id: loaded.id, sandbox: $0) }
        }.filter { id == nil || shown.contains($0.id) }
    }

    /// `status`'s result as JSON bytes, from `statusCache`: the same bytes as encoding
    /// `status(of:)`'s value.
    func statusReply(of id: String?) throws -> Result<[UInt8], HostError> {
        let now = clock.now
        // Asked of the driver, which holds the host: `host` (and `driver.host`) copy it first.
        switch driver.status(of: id.map { WidgetID($0) }, at: now) {
        case .success(let widgets):
            // The array handed over last, so that the cache takes it apart without copying.
            let extensions = everySandbox(of: widgets, id: id)
            return .success(try statusCache.result(now: now, widgets: widgets, extensions: extensions, everyWidget: id == nil))
        case .failure(let error): return .failure(error)
        }
    }

    func timeline(of id: String) -> Result<TimelineResult, HostError> {
        host.timeline(of: WidgetID(id), at: clock.now)
    }

    func currentConfigurations(app: String?) -> [WidgetInfo] {
        host.currentConfigurations(app: app)
    }

    /// The one-line summary for systemd's STATUS=.
    var statusLine: String {
        let widgets = host.widgetCount
        let extensions = catalog.loaded.count
        var line = "\(widgets) widget\(widgets == 1 ? "" : "s"), \(extensions) extension\(extensions == 1 ? "" : "s")"
        if let next = host.nextDeadline {
            line += ", next deadline \(RFC3339.format(next))"
        }
        return line
    }

    /// Stops the timer and every extension; succeeds once all are reaped.
    func shutdown() -> EventLoopFuture<Void> {
        stopped = true
        timer?.close()
        timer = nil
        fallbackTimer?.cancel()
        fallbackTimer = nil
        for id in waitingAnswers.keys.sorted() {
            waitingAnswers.removeValue(forKey: id)?.fail(
                JSONRPCError(code: JSONRPCError.internalErrorCode, message: "the daemon is stopping"))
        }
        return supervisor.stopAll()
    }
}
