import Foundation
import NIOCore
import WidgetHostProtocol

/// Pushes each changed widget's card to every open page as a server-sent event. The host's
/// notices mark widgets changed; once the step that announced them is over, each changed
/// card is drawn once and sent (`event: card`). A removed widget is `event: removed`.
/// While a page is open, a comment line every `keepAlive` keeps proxies and the browser
/// from timing out; with none open, nothing is scheduled. Lives on the host's event loop.
final class LiveUpdates: @unchecked Sendable {
    let source: any DashboardSource
    let metrics: HostMetrics
    let keepAlive: TimeAmount
    private var subscription: Int?
    private var clients: [Int: AsyncStream<ByteBuffer>.Continuation] = [:]
    private var nextClient = 1
    private var changed: [String] = []
    private var removed: [String] = []
    private var flushScheduled = false
    /// A Live Activity's views or place changed: the Live Activities panel is sent again.
    private var activitiesChanged = false
    private var keepAliveTask: RepeatedTask?
    /// Per widget, the last `historyLimit` reloads and deferrals, oldest first.
    private(set) var history: [String: [HistoryLine]] = [:]
    let historyLimit = 50

    init(source: any DashboardSource, metrics: HostMetrics, keepAlive: TimeAmount) {
        self.source = source
        self.metrics = metrics
        self.keepAlive = keepAlive
    }

    var eventLoop: any EventLoop { source.eventLoop }

    func start() {
        eventLoop.preconditionInEventLoop()
        guard subscription == nil else { return }
        subscription = source.subscribe { [weak self] notice in self?.handle(notice) }
    }

    func stop() {
        eventLoop.preconditionInEventLoop()
        if let subscription { source.unsubscribe(subscription) }
        subscription = nil
        keepAliveTask?.cancel()
        keepAliveTask = nil
        let open = clients
        clients = [:]
        for client in open.values { client.finish() }
    }

    // MARK: - Notices

    func handle(_ notice: HostNotice) {
        metrics.observe(notice)
        if case .activity(let activity) = notice {
            // What the panel draws changes when the views do, when one goes stale or ends
            // (it leaves the island) and when it is dismissed.
            switch activity.event {
            case .rendered, .stale, .ended, .dismissed, .requested: activitiesChanged = true
            case .updated, .throttled, .ignored, .refused: return
            }
            scheduleFlush()
            return
        }
        guard let id = notice.widgetId else { return }
        record(notice, id: id)
        switch notice {
        case .widgetRemoved:
            changed.removeAll { $0 == id }
            history[id] = nil
            if !removed.contains(id) { removed.append(id) }
        case .widgetAdded, .reloadStarted, .reloadDeferred, .reloadFinished, .entryChanged, .diagnostic,
            .extensionKilled, .intentStarted, .intentFinished:
            // A tapped intent changes the card while it runs (the Toggle's new state, dimmed
            // invalidatable content) and when it ends (a failed Toggle rolls back).
            if !changed.contains(id) { changed.append(id) }
        default:
            // Nothing on a widget's card changes (coalesced requests, snapshots, Live Activities,
            // controls).
            return
        }
        scheduleFlush()
    }

    private func scheduleFlush() {
        guard !flushScheduled, !clients.isEmpty else {
            if clients.isEmpty {
                changed = []
                removed = []
                activitiesChanged = false
            }
            return
        }
        flushScheduled = true
        // After the step that announced it: the host's state then includes the change.
        eventLoop.execute { self.flush() }
    }

    private func record(_ notice: HostNotice, id: String) {
        let text: String
        switch notice {
        case .reloadStarted(_, _, let charge, _):
            text = "started (\(HostMetrics.chargeName(charge))\(charge.isBudgeted ? "" : ": " + HostMetrics.reason(charge)))"
        case .reloadDeferred(_, _, _, _, let until, let reason):
            text = "deferred until \(until.map(RFC3339.format) ?? "later") (\(reason.rawValue))"
        case .reloadFinished(_, _, _, let result, let durationMs, let footprint, let detail):
            var line = "\(result.rawValue), \(WidgetCard.milliseconds(durationMs))"
            if let footprint { line += ", \(WidgetCard.mebibytes(footprint))" }
            if let detail { line += " — \(detail)" }
            text = line
        case .extensionKilled(_, _, _, let result, _, _, let detail):
            text = "killed: \(result.rawValue) — \(detail)"
        case .intentStarted(_, _, _, _, let intent, let button, let isOn):
            text = "tap: \(intent)\(button.map { " (\($0))" } ?? "")\(isOn.map { $0 ? " → on" : " → off" } ?? "")"
        case .intentFinished(_, _, _, _, let intent, let outcome, let durationMs, let detail):
            text = "intent \(intent) \(outcome.rawValue), \(WidgetCard.milliseconds(durationMs))\(detail.map { " — \($0)" } ?? "")"
        default:
            return
        }
        var lines = history[id] ?? []
        lines.append(HistoryLine(at: notice.at, text: text))
        if lines.count > historyLimit { lines.removeFirst(lines.count - historyLimit) }
        history[id] = lines
    }

    private func flush() {
        flushScheduled = false
        let ids = changed
        let gone = removed
        let panel = activitiesChanged
        changed = []
        removed = []
        activitiesChanged = false
        guard !clients.isEmpty else { return }
        let snapshot = source.dashboardSnapshot()
        if panel {
            send(
                event: "activities",
                data: [
                    "html": .string(DashboardPage.activities(snapshot)),
                    "sent": .number(Date().timeIntervalSince1970 * 1000),
                ])
        }
        for id in gone {
            send(event: "removed", data: ["id": .string(id)])
        }
        for id in ids {
            guard let status = snapshot.widgets.first(where: { $0.widget.id == id }) else { continue }
            send(
                event: "card",
                data: [
                    "id": .string(id), "family": .string(status.widget.family.rawValue),
                    "html": .string(WidgetCard.html(status, snapshot)),
                    "sent": .number(Date().timeIntervalSince1970 * 1000),
                ])
        }
    }

    private func send(event: String, data: [String: JSONValue]) {
        guard let encoded = try? WireCoding.encode(JSONValue.object(data)) else { return }
        // JSON has no raw line breaks (they are escaped in strings): one `data:` line.
        broadcast("event: \(event)\ndata: \(String(decoding: encoded, as: UTF8.self))\n\n")
    }

    private func broadcast(_ text: String) {
        let buffer = ByteBuffer(string: text)
        for id in clients.keys.sorted() { clients[id]?.yield(buffer) }
    }

    // MARK: - Pages

    /// A new `/events` stream. The first chunk tells the browser how soon to reconnect.
    func open() -> AsyncStream<ByteBuffer> {
        eventLoop.preconditionInEventLoop()
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = nextClient
        nextClient += 1
        clients[id] = continuation
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.eventLoop.execute { self.close(id) }
        }
        continuation.yield(ByteBuffer(string: "retry: 1000\n: widgethost live updates\n\n"))
        if keepAliveTask == nil {
            keepAliveTask = eventLoop.scheduleRepeatedTask(initialDelay: keepAlive, delay: keepAlive) { [weak self] _ in
                self?.broadcast(": keep-alive\n\n")
            }
        }
        return stream
    }

    private func close(_ id: Int) {
        clients[id] = nil
        if clients.isEmpty {
            keepAliveTask?.cancel()
            keepAliveTask = nil
        }
    }

    var openStreams: Int { clients.count }

    /// The timers it keeps scheduled: one keep-alive while any page is open, whatever their
    /// number; none with none open (the daemon's idle wake-ups, docs/benchmarks.md).
    var scheduledTimers: Int { keepAliveTask == nil ? 0 : 1 }
}
