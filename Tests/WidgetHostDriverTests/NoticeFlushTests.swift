import Foundation
import Testing
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// A step's notices go to each subscriber in one write (issue 16: the reply step wrote
/// `reloadFinished` and `entryChanged` in two, each a system call and a wake-up of the
/// client): the sink is flushed once a step's effects are all executed — after the step's
/// write, after its requests are flushed — and once for a batch of steps.
@Suite("The driver's notice flush")
struct NoticeFlushTests {
    final class Sink: NoticeSink {
        let log: FlushTests.Log
        init(log: FlushTests.Log) { self.log = log }
        func publish(_ notice: HostNotice) { log.add(notice.type.rawValue) }
        func flush() { log.add("notices flushed") }
    }

    @Test("A reload's two steps: each step's notices after its write, then one notice flush after its requests' flush")
    func oneFlushPerStep() {
        let log = FlushTests.Log()
        let runner = FlushTests.Runner(log: log)
        let now = Date(timeIntervalSince1970: 1_771_142_400)
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()), clock: FlushTests.Clock(now: now), runner: runner,
            store: FlushTests.Store(log: log), notices: Sink(log: log))
        driver.handle(.hostStarted(bootID: "b"))
        driver.handle(.catalogChanged([FlushTests.descriptor(pipelining: false)]))
        driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        while let request = runner.sent.first {
            runner.sent.removeFirst()
            driver.report(.extensionReplied(request.id, FlushTests.reply(to: request, at: now), footprintBytes: nil))
        }
        _ = log.take()
        driver.handle(.reloadRequested(ReloadRequest(.kind("K", app: nil))))
        let started = log.take()
        #expect(started.first == "persist")
        #expect(started.last == "notices flushed")
        #expect(started.filter { $0 == "notices flushed" }.count == 1)
        #expect(started.contains("reloadStarted"))
        #expect(started.firstIndex(of: "flush")! < started.firstIndex(of: "notices flushed")!)
        let request = runner.sent.removeFirst()
        driver.report(
            .extensionReplied(
                request.id,
                .timeline(TimelinePayload(entries: [TimelineEntryPayload(date: now, content: ["n": 1])], policy: .never), byteCount: 50),
                footprintBytes: nil))
        #expect(log.take() == ["persist", "reloadFinished", "entryChanged", "notices flushed"])
    }

    @Test("A batch of steps: their notices after the one write, and one notice flush at the end")
    func oneFlushPerBatch() {
        let log = FlushTests.Log()
        let runner = FlushTests.Runner(log: log)
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()),
            clock: FlushTests.Clock(now: Date(timeIntervalSince1970: 1_771_142_400)), runner: runner,
            store: FlushTests.Store(log: log), notices: Sink(log: log))
        driver.handle(.hostStarted(bootID: "b"))
        driver.handle(.catalogChanged([FlushTests.descriptor(pipelining: true)]))
        _ = log.take()
        driver.batch {
            for _ in 0..<3 { driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall))) }
        }
        let lines = log.take()
        #expect(lines.first == "persist")
        #expect(lines.filter { $0 == "persist" }.count == 1)
        #expect(lines.filter { $0 == "widgetAdded" }.count == 3)
        #expect(lines.last == "notices flushed")
        #expect(lines.filter { $0 == "notices flushed" }.count == 1)
    }

    @Test("A step without notices flushes none")
    func noNoticesNoFlush() {
        let log = FlushTests.Log()
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()),
            clock: FlushTests.Clock(now: Date(timeIntervalSince1970: 1_771_142_400)), runner: FlushTests.Runner(log: log),
            store: FlushTests.Store(log: log), notices: Sink(log: log))
        driver.handle(.hostStarted(bootID: "b"))
        _ = log.take()
        driver.handle(.deadlineReached)
        #expect(!log.take().contains("notices flushed"))
    }
}
