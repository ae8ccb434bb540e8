import Foundation
import Synchronization
import Testing
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// Group commit: the steps of one batch share one write, in which a widget several of them
/// changed is written once, as the last of them left it (the fill's placeholder and timeline
/// replies arrive in one read: issue 16, figure 4).
@Suite("The driver's batch write")
struct BatchWriteTests {
    static let now = Date(timeIntervalSince1970: 1_771_142_400)

    /// A driver writing to `store`, its host started with one extension of kind `K` that
    /// pipelines its requests.
    private func startedDriver(runner: FlushTests.Runner, store: any StateStore) -> HostDriver {
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()), clock: FlushTests.Clock(now: Self.now), runner: runner,
            store: store, notices: FlushTests.Sink())
        driver.handle(.hostStarted(bootID: "b"))
        driver.handle(.catalogChanged([FlushTests.descriptor(pipelining: true)]))
        return driver
    }

    final class Store: StateStore {
        let writes = Mutex<[(changed: [WidgetRecord], removed: [WidgetID])]>([])
        func load() throws(StateError) -> PersistedState? { nil }
        func write(host: HostRecord?, changed: [WidgetRecord], removed: [WidgetID], activities: ActivityChanges)
            throws(StateError)
        { writes.withLock { $0.append((changed, removed)) } }
        func take() -> [(changed: [WidgetRecord], removed: [WidgetID])] {
            writes.withLock { writes in defer { writes = [] }; return writes }
        }
    }

    @Test("A widget changed by several steps of one batch is written once, with the state the last step left")
    func lastStateOnce() throws {
        let now = Self.now
        let runner = FlushTests.Runner(log: FlushTests.Log())
        let store = Store()
        let driver = startedDriver(runner: runner, store: store)
        for _ in 0..<2 { driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall))) }
        _ = store.take()
        // Both widgets' placeholder and timeline replies in one read, interleaved.
        let requests = runner.sent
        #expect(requests.count == 4)
        driver.batch {
            for request in requests {
                let reply: ExtensionReply =
                    switch request.call {
                    case .timeline:
                        .timeline(
                            TimelinePayload(
                                entries: [TimelineEntryPayload(date: now, content: ["w": .string(request.widget?.rawValue ?? "")])],
                                policy: .never),
                            byteCount: 50)
                    default: .entry(TimelineEntryPayload(date: now, content: ["placeholder": true]))
                    }
                driver.report(.extensionReplied(request.id, reply, footprintBytes: nil))
            }
        }
        let writes = store.take()
        #expect(writes.count == 1, "one write for the batch")
        let written = try #require(writes.first).changed
        #expect(written.map(\.id) == ["w1", "w2"], "each widget once")
        for record in written {
            let final = try #require(driver.host.record(of: record.id))
            #expect(record == final, "the state the last step left")
            #expect(record.timeline?.entries.first?.content == ["w": .string(record.id.rawValue)])
            #expect(record.placeholder?.content == ["placeholder": true])
            #expect(record.running == nil)
        }
    }

    /// A store whose every write fails.
    final class FailingStore: StateStore {
        func load() throws(StateError) -> PersistedState? { nil }
        func write(host: HostRecord?, changed: [WidgetRecord], removed: [WidgetID], activities: ActivityChanges)
            throws(StateError)
        { throw .writeFailed(path: "/state", sqliteMessage: "disk I/O error \(changed.map(\.id.rawValue))") }
    }

    @Test("A write that fails is handed to storeFailed with the store's error, and the core's state stays in memory")
    func failedWrite() throws {
        let driver = startedDriver(runner: FlushTests.Runner(log: FlushTests.Log()), store: FailingStore())
        var failures: [StateError] = []
        driver.storeFailed = { failures.append($0) }
        driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall)))
        #expect(failures == [.writeFailed(path: "/state", sqliteMessage: "disk I/O error [\"w1\"]")])
        #expect(driver.host.record(of: "w1") != nil)
    }

    @Test("A batch's effects leave after its one write, in order; a batch that only wrote ends no step")
    func heldEffectsInOrder() throws {
        let runner = FlushTests.Runner(log: FlushTests.Log())
        let store = Store()
        let driver = startedDriver(runner: runner, store: store)
        var steps = 0
        driver.didStep = { steps += 1 }
        _ = store.take()
        driver.batch {
            for _ in 0..<2 { driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall))) }
            #expect(runner.sent.isEmpty, "nothing leaves before the batch's write")
        }
        #expect(store.take().count == 1, "the batch's one write")
        #expect(runner.sent.map(\.widget) == ["w1", "w1", "w2", "w2"], "each widget's requests, in the steps' order")
        let before = steps
        driver.batch { _ = driver.handle(.viewRecorded("w1")) }
        #expect(store.take().map(\.changed.count) == [1], "the view is written")
        #expect(steps == before + 1, "the view's own step, and no second one: no effect was held")
    }
}
