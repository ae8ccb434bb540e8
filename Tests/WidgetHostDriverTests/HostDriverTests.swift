import Foundation
import Testing
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// The driver with every part plugged in by the test: a clock it owns, a runner that
/// records and answers when told, a store and a sink in memory.
@Suite("The driver")
struct HostDriverTests {
    final class TestClock: AdjustableClock, @unchecked Sendable {
        var now: Date
        init(_ now: Date) { self.now = now }
        func jump(to date: Date) { now = max(now, date) }
    }

    final class TestRunner: ExtensionRunner {
        var sent: [ExtensionRequest] = []
        var killed: [String] = []
        var terminated: [String] = []
        var running: Set<RequestID> = []
        /// Reports back while the send effect executes (a spawn failure does).
        var failAtOnce = false
        weak var driver: HostDriver?
        var reportsDuringSend: [HostReply?] = []

        func send(_ request: ExtensionRequest) {
            sent.append(request)
            running.insert(request.id)
            if failAtOnce {
                running.remove(request.id)
                reportsDuringSend.append(driver?.handle(.extensionFailed(request.id, .crashed("cannot start"))))
            }
        }
        func kill(_ extension: String) {
            killed.append(`extension`)
            running.removeAll()
        }
        func terminate(_ extension: String) { terminated.append(`extension`) }
        var hasRunningRequest: Bool { !running.isEmpty }

        func reply(_ request: ExtensionRequest, at clock: TestClock) {
            running.remove(request.id)
            let entry = TimelineEntryPayload(date: clock.now, content: ["text": "x"])
            driver?.report(.extensionReplied(
                request.id, .timeline(TimelinePayload(entries: [entry], policy: .after(clock.now + 3600)), byteCount: 100),
                footprintBytes: 1_000_000))
        }
    }

    final class Sink: NoticeSink {
        var notices: [HostNotice] = []
        func publish(_ notice: HostNotice) { notices.append(notice) }
    }

    static let start = Date(timeIntervalSince1970: 1_771_142_400)
    static let descriptor = ExtensionDescriptor(
        id: "com.example.app.widget",
        widgets: [WidgetDescriptor(kind: "K", displayName: "K", description: "k", supportedFamilies: [.systemSmall])])

    private func make() -> (HostDriver, TestClock, TestRunner, Sink, InMemoryStateStore) {
        let clock = TestClock(Self.start)
        let runner = TestRunner()
        let sink = Sink()
        let store = InMemoryStateStore()
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()), clock: clock, runner: runner, store: store,
            notices: sink)
        runner.driver = driver
        driver.handle(.hostStarted(bootID: "b"))
        driver.handle(.catalogChanged([Self.descriptor]))
        return (driver, clock, runner, sink, store)
    }

    @Test("Effects run in order: the request goes to the runner, notices to the sink, records to the store")
    func effects() throws {
        let (driver, clock, runner, sink, store) = make()
        let reply = driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        guard case .widgetAdded(let added)? = reply else { Issue.record("\(String(describing: reply))"); return }
        #expect(runner.sent.map(\.call.method) == [.placeholder])
        #expect(sink.notices.first?.type == .widgetAdded)
        #expect(try store.load()?.widgets.map(\.id.rawValue) == [added.widget.id])
        runner.reply(runner.sent[0], at: clock)
        #expect(runner.sent.count >= 1)
    }

    @Test("An event the runner reports while effects execute is queued and handled after them, not inside them")
    func queued() {
        let (driver, _, runner, sink, _) = make()
        runner.failAtOnce = true
        driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        #expect(runner.reportsDuringSend.allSatisfy { $0 == nil }, "queued, so no reply from inside")
        #expect(!runner.reportsDuringSend.isEmpty)
        // The queued failure was handled: the core knows the request failed.
        #expect(sink.notices.contains { $0.type == .diagnostic || $0.type == .reloadFinished })
    }

    @Test("Advancing handles each deadline at its own instant, and waits for a running request without polling")
    func advance() throws {
        let (driver, clock, runner, _, _) = make()
        driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        // The placeholder and the first timeline are answered.
        while let request = runner.sent.last, runner.running.contains(request.id) { runner.reply(request, at: clock) }
        let target = Self.start + 6 * 3600
        var handled: Int?
        driver.advance(clock, to: target) { handled = $0 }
        // The hourly policy brings a reload due within the hour: the clock stops there and
        // waits while the request runs.
        #expect(handled == nil)
        #expect(driver.isAdvancing)
        #expect(runner.hasRunningRequest)
        let stoppedAt = clock.now
        #expect(stoppedAt > Self.start && stoppedAt < target)
        // Each reply lets the advance go on to the next deadline; nothing else moves it.
        var replies = 0
        while handled == nil, let request = runner.sent.last, runner.running.contains(request.id) {
            runner.reply(request, at: clock)
            replies += 1
        }
        #expect(handled != nil && handled! >= replies)
        #expect(clock.now == target)
        #expect(!driver.isAdvancing)
    }

    @Test("A kill at the request's deadline also lets the advance go on")
    func advancePastTimeout() {
        let (driver, clock, runner, _, _) = make()
        driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        #expect(runner.hasRunningRequest)
        var handled: Int?
        driver.advance(clock, to: Self.start + 60) { handled = $0 }
        #expect(handled == nil, "waits for the placeholder")
        // The extension never answers; the timer (the shell's) brings the deadline.
        clock.jump(to: Self.start + 1)
        driver.handle(.deadlineReached)
        #expect(runner.killed == [Self.descriptor.id])
        #expect(handled != nil || runner.hasRunningRequest, "went on once the kill ended the request")
    }
}
