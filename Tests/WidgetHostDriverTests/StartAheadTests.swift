import Foundation
import Synchronization
import Testing
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// A cold reload's spawn is started before its step is written (issue 16, figure 1: the write
/// then runs while the extension loads), and nothing of the step leaves before the write: the
/// process is started, the step written, then the notice and the request go out in the
/// step's order. A start that fails ahead reaches the core where a failed start at `send`
/// always did.
@Suite("Processes started ahead of the step's write")
struct StartAheadTests {
    /// Records every call in one log; `failStarts`: the start fails and `send` reports it (the
    /// daemon's `ExtensionSupervisor`); `failAtSend`: no start ahead, `send` starts and fails
    /// (a runner without `startProcess`, as every runner was before).
    final class Runner: ExtensionRunner {
        enum Failing { case never, ahead, atSend }
        let log: FlushTests.Log
        let failing: Failing
        weak var driver: HostDriver?
        var sent: [ExtensionRequest] = []
        private var failedStart: Set<String> = []
        private var running: Set<String> = []

        init(log: FlushTests.Log, failing: Failing = .never) {
            self.log = log
            self.failing = failing
        }

        func startProcess(for request: ExtensionRequest) {
            guard failing != .atSend, !running.contains(request.extension) else { return }
            log.add("start \(request.widget?.rawValue ?? "-")")
            if failing == .ahead { failedStart.insert(request.extension) } else { running.insert(request.extension) }
        }
        func send(_ request: ExtensionRequest) {
            log.add("send \(request.widget?.rawValue ?? "-")")
            sent.append(request)
            if failedStart.remove(request.extension) != nil || failing == .atSend {
                driver?.report(.extensionFailed(request.id, .crashed("cannot start")))
            }
        }
        func kill(_ extension: String) { running.remove(`extension`) }
        func terminate(_ extension: String) { running.remove(`extension`) }
        var hasRunningRequest: Bool { false }
        func flush() { log.add("flush") }
    }

    final class Sink: NoticeSink {
        let log: FlushTests.Log
        init(log: FlushTests.Log) { self.log = log }
        func publish(_ notice: HostNotice) { log.add("notice \(notice.type.rawValue)") }
    }

    static let now = Date(timeIntervalSince1970: 1_771_142_400)

    /// A driver with a catalog of one extension and nothing started yet.
    static func make(failing: Runner.Failing = .never, pipelining: Bool = false) -> (HostDriver, Runner, FlushTests.Log) {
        let log = FlushTests.Log()
        let runner = Runner(log: log, failing: failing)
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()), clock: FlushTests.Clock(now: now), runner: runner,
            store: FlushTests.Store(log: log), notices: Sink(log: log))
        runner.driver = driver
        driver.handle(.hostStarted(bootID: "b"))
        driver.handle(.catalogChanged([FlushTests.descriptor(pipelining: pipelining)]))
        _ = log.take()
        return (driver, runner, log)
    }

    /// Answers every request sent so far, in order, with an entry or a timeline.
    static func answerAll(_ runner: Runner, _ driver: HostDriver) {
        while let request = runner.sent.first {
            runner.sent.removeFirst()
            driver.report(.extensionReplied(request.id, FlushTests.reply(to: request, at: now), footprintBytes: nil))
        }
    }

    @Test("A reload: the process started, then the step's write, then the notice, then the request")
    func reloadOrder() {
        let (driver, runner, log) = Self.make()
        driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        #expect(log.take().prefix(2) == ["start w1", "persist"], "the add's placeholder, too")
        Self.answerAll(runner, driver)
        // The extension was stopped after its idle time.
        runner.terminate(FlushTests.descriptor(pipelining: false).id)
        _ = log.take()
        driver.handle(.reloadRequested(ReloadRequest(.kind("K", app: nil))))
        #expect(log.take() == ["start w1", "persist", "notice reloadStarted", "send w1", "flush"])
    }

    @Test("A running process is not started again; the order is otherwise the same")
    func running() {
        let (driver, runner, log) = Self.make()
        driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        Self.answerAll(runner, driver)
        _ = log.take()
        driver.handle(.reloadRequested(ReloadRequest(.kind("K", app: nil))))
        #expect(log.take() == ["persist", "notice reloadStarted", "send w1", "flush"])
    }

    @Test("In a batch: every process started, then the one write, then the held notices and requests in order")
    func batch() {
        let (driver, runner, log) = Self.make(pipelining: true)
        for _ in 0..<2 { driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall))) }
        Self.answerAll(runner, driver)
        runner.terminate(FlushTests.descriptor(pipelining: true).id)
        _ = log.take()
        driver.batch {
            driver.handle(.reloadRequested(ReloadRequest(.widget("w1"))))
            driver.handle(.reloadRequested(ReloadRequest(.widget("w2"))))
            #expect(log.take() == [], "nothing started, written or sent inside the batch")
        }
        // One process for both requests, started once.
        #expect(
            log.take() == [
                "start w1", "persist", "notice reloadStarted", "send w1", "notice reloadStarted", "send w2", "flush",
            ])
    }

    @Test("A start that fails ahead reaches the core at the point a failed start at `send` does: same notices, same writes, same state")
    func failedStart() {
        func run(_ failing: Runner.Failing) -> (log: [String], status: [WidgetStatus]) {
            let (driver, _, log) = Self.make(failing: failing)
            driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
            driver.handle(.reloadRequested(ReloadRequest(.widget("w1"), origin: .foreground)))
            let status = (try? driver.status(of: nil, at: Self.now).get()) ?? []
            return (log.take().filter { !$0.hasPrefix("start") }, status)
        }
        let ahead = run(.ahead)
        let atSend = run(.atSend)
        #expect(ahead.log == atSend.log)
        #expect(ahead.log.contains("notice reloadFinished"), "\(ahead.log)")
        #expect(ahead.status == atSend.status)
        #expect(ahead.status.first?.lastOutcome?.result == .crashed)
    }
}
