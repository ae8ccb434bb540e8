import DequeModule
import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// Runs what the core asks for extensions: starts processes, sends requests, kills and
/// stops them, and reports what they did back through `HostDriver.report`.
public protocol ExtensionRunner: AnyObject {
    /// Starts the process `request` will go to if none runs, and writes nothing of the request:
    /// the driver calls it for each of a step's requests *before* the step's write, so that the
    /// process loads while the write is made (architecture.md, "Durability"). A start that
    /// fails reports nothing here; `send` reports it, at the point in the order where it always did.
    func startProcess(for request: ExtensionRequest)
    /// Sends a request, starting the extension's process first if none runs.
    func send(_ request: ExtensionRequest)
    /// SIGKILL to the extension's process group now (like jetsam).
    func kill(_ extension: String)
    /// The extension has been idle: SIGTERM, then SIGKILL after a grace.
    func terminate(_ extension: String)
    /// A request is out with an extension and has not been answered or given up.
    var hasRunningRequest: Bool { get }
    /// Writes out what `send` may have held back: the driver calls it once a step's requests
    /// are all sent (the step is already persisted), so that requests to one process go out in
    /// one write.
    func flush()
}

extension ExtensionRunner {
    /// A runner that starts nothing ahead starts its process at `send`.
    public func startProcess(for request: ExtensionRequest) {}
    /// A runner that writes each request as it is sent has nothing to flush.
    public func flush() {}
}

/// Where the core's notices go: subscribers and the log in the daemon, the report in the harness.
public protocol NoticeSink: AnyObject {
    func publish(_ notice: HostNotice)
    /// Writes out what `publish` may have held back: the driver calls it once a step's
    /// effects are all executed (the step is already persisted, its requests flushed), so
    /// that a step's notices go to each subscriber in one write.
    func flush()
}

extension NoticeSink {
    /// A sink that delivers each notice as it is published has nothing to flush.
    public func flush() {}
}

/// The one effect interpreter for the core. It owns the `WidgetHost`, feeds it each event at
/// the clock's time, writes what each step changed, and then executes the step's other
/// effects in order (nothing leaves before its step is stored) through small protocols — the clock,
/// the extension runner, the state store, the notice sink — which is all the daemon and the
/// harness differ in. Events the runner reports while effects execute are queued and handled
/// after them, never re-entrantly, so the core sees one event at a time in one order.
///
/// Synchronous and confined to its owner's thread (the daemon's event loop, the harness's
/// loop), as NIO's `EmbeddedEventLoop` is.
public final class HostDriver {
    public private(set) var host: WidgetHost

    /// `host.status(of:at:)` without a copy of the host: reading the property to call a method
    /// on it copies the whole host first (~1,300 instructions a `status`, callgrind).
    public func status(of id: WidgetID?, at now: Date) -> Result<[WidgetStatus], HostError> {
        withUnsafeMutablePointer(to: &host) { $0.pointee.status(of: id, at: now) }
    }
    public let clock: any HostClock
    private let runner: any ExtensionRunner
    private let store: (any StateStore)?
    private let notices: any NoticeSink
    private var executing = false
    private var queued = Deque<HostEvent>()
    private var advances = Deque<Advance>()
    /// Inside `batch`: how deep, the write its steps need, and their effects held until then
    /// (each step's whole, `persist` included, which `execute` passes over; none of a step
    /// that had nothing but its write).
    private var batchDepth = 0
    private var pendingWrite = PendingWrite()
    private var heldEffects: [HostEffect] = []

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

    /// One event: its step is made durable first, then its effects leave (a notice, a
    /// request to an extension, an answer: none before the write that covers its step).
    /// The processes its requests go to are started before the write, and carry nothing of
    /// the step until it is stored (`startProcesses`). Inside `batch`, the write and the
    /// effects wait for the batch's end.
    private func step(_ event: HostEvent) -> HostReply? {
        let step = host.handle(event, at: clock.now)
        if batchDepth > 0 {
            // Held whole (`execute` passes over `persist`): appending them one by one copied
            // each effect twice (~2,500 instructions a step, callgrind).
            var others = false
            for index in step.effects.indices {
                if case .persist(let scope) = step.effects[index] { pendingWrite.add(scope) } else { others = true }
            }
            if others { heldEffects.append(contentsOf: step.effects) }
            return step.reply
        }
        startProcesses(step.effects)
        for index in step.effects.indices {
            if case .persist(let scope) = step.effects[index] { persist(scope) }
        }
        execute(step.effects)
        return step.reply
    }

    /// The processes `effects`' requests go to, started ahead of the step's write: a cold
    /// start's spawn is then off the path of the write (~0.3 M instructions, SQLite's locks
    /// and WAL writes), which runs while the new process loads. Nothing of a request leaves
    /// here; a failed start is reported by `send`, in the effects' order.
    private func startProcesses(_ effects: [HostEffect]) {
        for index in effects.indices {
            if case .send(let request) = effects[index] { runner.startProcess(for: request) }
        }
    }

    /// The effects other than `persist`, in order; requests to one process go out in one
    /// write, then the step's notices to each subscriber in one (the requests first: an
    /// extension's work is on a reload's path, a subscriber's read of `reloadStarted` is not).
    private func execute(_ effects: [HostEffect]) {
        var unflushed = false
        var published = false
        for index in effects.indices {
            switch effects[index] {
            case .send(let request):
                runner.send(request)
                unflushed = true
            case .kill(let ext, _): runner.kill(ext)
            case .terminate(let ext): runner.terminate(ext)
            case .persist: break
            case .notice(let notice):
                notices.publish(notice)
                published = true
            case .answer(let id, let reply): answered(id, reply)
            }
        }
        if unflushed { runner.flush() }
        if published { notices.flush() }
    }

    // MARK: - Group commit

    /// Runs `body`, in which the owner feeds the core several events at once (the lines of one
    /// read from a client or an extension), so that their steps are written in one
    /// transaction instead of one each: the steps are handled as they come, their effects are
    /// held, and at the end the write covering all of them is made and then the held effects
    /// are executed in order. Nothing a held step caused leaves the process before that write
    /// (the owner holds its own replies to the commands, too, until `batch` returns). Nested
    /// batches end with the outermost.
    public func batch<T>(_ body: () throws -> T) rethrows -> T {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 { endBatch() }
        }
        return try body()
    }

    /// The processes of the batch's requests started, the batch's write, then its effects and
    /// whatever the runner reported meanwhile, then the virtual clock's advance if one waited
    /// for the batch.
    private func endBatch() {
        startProcesses(heldEffects)
        if let scope = pendingWrite.take() { persist(scope) }
        if !heldEffects.isEmpty {
            let effects = heldEffects
            heldEffects = []
            if executing {
                // Inside a step's effects: its loop handles what they cause.
                execute(effects)
            } else {
                executing = true
                execute(effects)
                while let next = queued.popFirst() { _ = step(next) }
                executing = false
                didStep()
            }
        }
        continueAdvancing()
    }

    private func persist(_ scope: PersistScope) {
        guard let store else { return }
        // Through a pointer, as `status`: passing the property copied the whole host
        // (~1,300 instructions a write, two a cold reload; callgrind).
        let written = withUnsafeMutablePointer(to: &host) { host in
            Result { () throws(StateError) in try store.write(scope, from: host.pointee) }
        }
        if case .failure(let error) = written { storeFailed(error) }
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
        while !executing, batchDepth == 0, var advance = advances.first {
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
