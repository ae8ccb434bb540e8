import Foundation
import NIOCore
import NIOPosix
import WidgetHostDashboard
import WidgetHostProtocol

/// A host with fixed widgets, whose notices a test sends, and which records write actions.
final class FakeSource: DashboardSource, @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var eventLoop: any EventLoop { group.next() }
    // On the event loop:
    var snapshot: DashboardSnapshot
    var handlers: [Int: (HostNotice) -> Void] = [:]
    var calls: [(ControlMethod, JSONValue?)] = []

    init(widgets: [WidgetStatus], timelines: [String: TimelineResult] = [:]) {
        snapshot = DashboardSnapshot(
            now: FakeSource.t0, widgets: widgets, timelines: timelines,
            catalog: ExtensionsResult(loaded: [], skipped: []), appGroupsPath: "/nonexistent")
    }

    deinit { group.shutdownGracefully { _ in } }

    static let t0 = Date(timeIntervalSince1970: 1_771_142_400)  // 2026-02-15T08:00:00Z

    func dashboardSnapshot() -> DashboardSnapshot { snapshot }

    func subscribe(_ handler: @escaping (HostNotice) -> Void) -> Int {
        let id = (handlers.keys.max() ?? 0) + 1
        handlers[id] = handler
        return id
    }

    func unsubscribe(_ id: Int) { handlers[id] = nil }

    func call(method: ControlMethod, params: JSONValue?) -> EventLoopFuture<DashboardCallResult> {
        calls.append((method, params))
        return eventLoop.makeSucceededFuture(.result(.object(["ok": .bool(true)])))
    }

    /// Changes a widget's entry and announces it, as the core does.
    func changeEntry(of id: String, to text: String) throws {
        try eventLoop.submit {
            guard let index = self.snapshot.widgets.firstIndex(where: { $0.widget.id == id }) else { return }
            let entry = TimelineEntryPayload(date: FakeSource.t0, content: .object(["text": .string(text)]))
            self.snapshot.widgets[index].currentEntry = CurrentEntry(source: .timeline, entry: entry)
            let widget = self.snapshot.widgets[index].widget
            let notice = HostNotice.entryChanged(
                NoticeWidget(id: id, kind: widget.kind, extension: widget.extension), at: FakeSource.t0, entry: entry,
                source: .timeline)
            for handler in self.handlers.values { handler(notice) }
        }.wait()
    }

    func publish(_ notice: HostNotice) throws {
        try eventLoop.submit { for handler in self.handlers.values { handler(notice) } }.wait()
    }

    static func status(id: String, kind: String, family: WidgetFamily, text: String = "hello") -> WidgetStatus {
        let entry = TimelineEntryPayload(date: t0, content: .object(["text": .string(text)]))
        return WidgetStatus(
            widget: WidgetInfo(id: id, kind: kind, family: family, app: "com.example", extension: "com.example.widgets"),
            addedAt: t0 - 3600,
            budget: BudgetStatus(
                used: 3, limit: 70, engagement: 1, views: 2, learning: true, pinned: false, enforced: true,
                ledger: [t0 - 7200, t0 - 600], nextFreeSlot: t0),
            nextReload: NextReload(at: t0 + 900, cause: "policy", budgeted: true),
            reloadRunning: false,
            lastOutcome: LastOutcome(
                result: .success, startedAt: t0 - 600, finishedAt: t0 - 599.88, peakFootprintBytes: 12_582_912,
                detail: nil),
            currentEntry: CurrentEntry(source: .timeline, entry: entry), policy: .atEnd, staleSince: nil,
            staleSeconds: 0, backoff: BackoffStatus(consecutiveFailures: 0, until: nil), diagnostics: [])
    }
}
