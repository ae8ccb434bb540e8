import DequeModule
import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// Runs what the core asks for extensions: starts processes, sends requests, kills and
/// stops them, and reports what they did back through `HostDriver.report`.
public protocol ExtensionRunner: AnyObject {
    /// Sends a request, starting the extension's process first if none runs.
    func send(_ request: ExtensionRequest)
    /// SIGKILL to the extension's process group now (like jetsam).
    func kill(_ extension: String)
    /// The extension has been idle: SIGTERM, then SIGKILL after a grace.
    func terminate(_ extension: String)
    /// A request is out with an extension and has not been answered or given up.
    var hasRunningRequest: Bool { get }
    /// Writes out what `send` may have held back: the driver calls it once a step's requests
    /// are all sent (before the step is persisted), so that requests to one process go out in
    /// one write.
    func flush()
}

extension ExtensionRunner {
    /// A runner that writes each request as it is sent has nothing to flush.
    public func flush() {}
}

/// Where the core's notices go: subscribers and the log in the daemon, the report in the harness.
public protocol NoticeSink: AnyObject {
    func publish(_ notice: HostNotice)
}

/// The one effect interpreter for the core. It owns the `WidgetHost`, feeds it each event at
/// the clock's time and executes the effects in order through small protocols — the clock,
/// the extension runner, the state store, the notice sink — which is all the daemon and the
/// harness differ in. Events the runner reports while effects execute are queued and handled
/// after them, never re-entrantly, so the core sees one event at a time in one order.
///
/// Synchronous and confined to its owner's thread (the daemon's event loop, the harness's
/// loop), as NIO's `EmbeddedEventLoop` is.
public final class HostDriver {
    public private(set) var host: WidgetHost
    public let clock: any HostClock
    private let runner: any ExtensionRunner
    private let store: (any StateStore)?
    private let notices: any NoticeSink
    private var executing = false
    private var queued = Deque<HostEvent>()
    private var advances = Deque<Advance>()

    /// Called after every step, once its effects and the events they caused are done (the
    /// daemon re-arms its timer and systemd's STATUS line here).
    public var didStep: () -> Void = {}
    /// A `persist` effect could not be written. The core's state is still right in memory;
    /// the next step that changes the same widgets writes them again.
    public var storeFailed: (StateError) -> Void = { _ in }
    /// The core answers a command it answered `.answerLater(id)` (the daemon replies to the
    /// client waiting on `id`; the harness records it).
    public var answered: (RequestID, HostReply) -> Void = { _, _ in }

    public init(
        host: WidgetHost, clock: any HostClock, runner: any ExtensionRunner, store: (any StateStore)?,
        notices: any NoticeSink
    ) {
        self.host = host
        self.clock = clock
        self.runner = runner
        self.store = store
        self.notices = notices
    }

    public var configuration: HostConfiguration { host.configuration }
    public var now: Date { clock.now }
    /// When the core wants `.deadlineReached` next.
    public var nextDeadline: Date? { host.nextDeadline }

    // MARK: - Feeding the core

    /// Handles `event` now and executes its effects, and then whatever the runner reported
    /// meanwhile; returns the reply for a command. Called while effects execute (by a runner
    /// reporting synchronously), the event is queued instead and nil returned.
    @discardableResult
    public func handle(_ event: HostEvent) -> HostReply? {
        guard !executing else {
            queued.append(event)
            return nil
        }
        let reply = run(event)
        continueAdvancing()
        return reply
    }

    /// What the runner saw: a reply, a failure, a footprint sample.
    public func report(_ event: HostEvent) {
        handle(event)
    }

    /// One event and everything queued behind it, then `didStep`.
    private func run(_ event: HostEvent) -> HostReply? {
        executing = true
        let reply = step(event)
        while let next = queued.popFirst() { _ = step(next) }
        executing = false
        didStep()
        return reply
    }

    private func step(_ event: HostEvent) -> HostReply? {
        let step = host.handle(event, at: clock.now)
        var unflushed = false
        for effect in step.effects {
            switch effect {
            case .send(let request):
                runner.send(request)
                unflushed = true
            case .kill(let ext, _): runner.kill(ext)
            case .terminate(let ext): runner.terminate(ext)
            case .persist(let scope):
                // The extensions work while the step is written.
                if unflushed { runner.flush() }
                unflushed = false
                persist(scope)
            case .notice(let notice): notices.publish(notice)
            case .answer(let id, let reply): answered(id, reply)
            }
        }
        if unflushed { runner.flush() }
        return step.reply
    }

    private func persist(_ scope: PersistScope) {
        guard let store else { return }
        do {
            try store.write(scope, from: host)
        } catch {
            storeFailed(error)
        }
    }

    // MARK: - Advancing a virtual clock

    private struct Advance {
        var clock: any AdjustableClock
        var target: Date
        var handled = 0
        var completion: (_ deadlinesHandled: Int) -> Void
    }

    /// Moves `clock` forward to `target`, handling each of the core's deadlines on the way
    /// at its own instant. A request in flight runs in real time: the clock jumps only when
    /// no request is running, and the jump after one is made as soon as the runner reports
    /// that it ended (its reply, its failure, or the kill at its deadline) — nothing polls.
    /// `completion` gets the number of deadlines handled. Advances asked for while one is
    /// under way follow it in order.
    public func advance(_ clock: any AdjustableClock, to target: Date, completion: @escaping (Int) -> Void) {
        advances.append(Advance(clock: clock, target: target, completion: completion))
        continueAdvancing()
    }

    /// An advance is under way (waiting for a running request, or between jumps).
    public var isAdvancing: Bool { !advances.isEmpty }

    private func continueAdvancing() {
        while !executing, var advance = advances.first {
            if runner.hasRunningRequest { return }
            if let deadline = host.nextDeadline, deadline <= advance.target {
                advance.clock.jump(to: deadline)
                advance.handled += 1
                advances[0] = advance
                _ = run(.deadlineReached)
                continue
            }
            advance.clock.jump(to: advance.target)
            advances.removeFirst()
            advance.completion(advance.handled)
        }
    }
}
