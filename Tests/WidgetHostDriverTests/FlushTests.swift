import Foundation
import Synchronization
import Testing
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// The driver writes a step first and then executes its effects, flushing the runner once
/// the step's requests are sent, so that reloads due at one instant go to a pipelining
/// extension in one write (issue 16) and no request leaves before its step (its charge) is
/// stored. In a batch, one write covers every step and the effects follow it.
@Suite("The driver's flush")
struct FlushTests {
    /// What happened, in order: "send w1", "flush", "persist".
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        func take() -> [String] { lines.withLock { lines in defer { lines = [] }; return lines } }
    }

    final class Runner: ExtensionRunner {
        let log: Log
        var sent: [ExtensionRequest] = []
        init(log: Log) { self.log = log }
        func send(_ request: ExtensionRequest) {
            sent.append(request)
            log.add("send \(request.widget?.rawValue ?? "-")")
        }
        func kill(_ extension: String) {}
        func terminate(_ extension: String) {}
        var hasRunningRequest: Bool { false }
        func flush() { log.add("flush") }
    }

    struct Store: StateStore {
        let log: Log
        func load() throws(StateError) -> PersistedState? { nil }
        func write(host: HostRecord?, changed: [WidgetRecord], removed: [WidgetID], activities: ActivityChanges)
            throws(StateError)
        { log.add("persist") }
    }

    final class Sink: NoticeSink {
        func publish(_ notice: HostNotice) {}
    }

    struct Clock: HostClock {
        let now: Date
    }

    /// An extension's answer to `request`: one entry at `now`, or a timeline of it that never reloads.
    static func reply(to request: ExtensionRequest, at now: Date) -> ExtensionReply {
        switch request.call {
        case .timeline:
            .timeline(TimelinePayload(entries: [TimelineEntryPayload(date: now, content: [:])], policy: .never), byteCount: 50)
        default: .entry(TimelineEntryPayload(date: now, content: [:]))
        }
    }

    static func descriptor(pipelining: Bool) -> ExtensionDescriptor {
        ExtensionDescriptor(
            id: "com.example.app.widget",
            widgets: [WidgetDescriptor(kind: "K", displayName: "K", description: "k", supportedFamilies: [.systemSmall])],
            pipelining: pipelining)
    }

    /// Four widgets served, then all asked to reload at one instant.
    static func run(pipelining: Bool) -> (log: [String], afterFirstAnswer: [String]) {
        let log = Log()
        let runner = Runner(log: log)
        let now = Date(timeIntervalSince1970: 1_771_142_400)
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()), clock: Clock(now: now), runner: runner,
            store: Store(log: log), notices: Sink())
        driver.handle(.hostStarted(bootID: "b"))
        driver.handle(.catalogChanged([descriptor(pipelining: pipelining)]))
        for _ in 0..<4 { driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall))) }
        // Answer everything the adds asked for, in order.
        while let request = runner.sent.first {
            runner.sent.removeFirst()
            driver.report(.extensionReplied(request.id, Self.reply(to: request, at: now), footprintBytes: nil))
        }
        _ = log.take()
        driver.handle(.reloadRequested(ReloadRequest(.kind("K", app: nil))))
        let reload = log.take()
        let first = runner.sent[0]
        driver.report(
            .extensionReplied(
                first.id,
                .timeline(TimelinePayload(entries: [TimelineEntryPayload(date: now, content: ["n": 1])], policy: .never), byteCount: 50),
                footprintBytes: nil))
        return (reload, log.take())
    }

    @Test("Reloads due at one instant: the step's write, then every request sent, then one flush")
    func persistThenOneFlush() {
        let (reload, afterFirstAnswer) = Self.run(pipelining: true)
        #expect(reload == ["persist", "send w1", "send w2", "send w3", "send w4", "flush"])
        // The next request is already in the process: the answer's step writes nothing more.
        #expect(afterFirstAnswer == ["persist"])
    }

    @Test("Without pipelining, one request a step, each sent and flushed after its step is written")
    func oneAtATime() {
        let (reload, afterFirstAnswer) = Self.run(pipelining: false)
        #expect(reload == ["persist", "send w1", "flush"])
        #expect(afterFirstAnswer == ["persist", "send w2", "flush"])
    }

    @Test("A batch of steps: one write covering them all, then their requests and one flush; a nested batch ends with the outer one")
    func batch() {
        let log = Log()
        let runner = Runner(log: log)
        let driver = HostDriver(
            host: WidgetHost(configuration: HostConfiguration()), clock: Clock(now: Date(timeIntervalSince1970: 1_771_142_400)),
            runner: runner, store: Store(log: log), notices: Sink())
        driver.handle(.hostStarted(bootID: "b"))
        driver.handle(.catalogChanged([Self.descriptor(pipelining: true)]))
        _ = log.take()
        var replies: [HostReply?] = []
        driver.batch {
            for _ in 0..<3 {
                replies.append(driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall))))
            }
            driver.batch {
                replies.append(driver.handle(.widgetAdded(AddWidgetRequest(kind: "K", family: .systemSmall))))
            }
            #expect(log.take() == [], "nothing written or sent inside the batch")
        }
        #expect(replies.count == 4 && replies.allSatisfy { $0 != nil }, "each command answered as it is handled")
        let after = log.take()
        #expect(after.first == "persist" && after.filter { $0 == "persist" }.count == 1, "\(after)")
        #expect(after.last == "flush" && after.filter { $0 == "flush" }.count == 1, "\(after)")
        #expect(Set(runner.sent.compactMap(\.widget?.rawValue)) == ["w1", "w2", "w3", "w4"])
        #expect(driver.host.widgetCount == 4)
    }
}
