import Foundation
import Synchronization
import Testing
import WidgetHostClient
import WidgetHostProtocol

/// Intents that misbehave, against the real daemon: Tests/Fixtures/Extensions/intents.py, whose
/// `intent/perform` hangs, crashes, replies garbage or allocates past the memory limit
/// depending on the button tapped. Each failure gets its own reason in the tap's answer, in
/// status and in the events, and the daemon goes on serving the next tap.
@Suite("Intents that misbehave, end to end", .serialized)
struct IntentMisbehaviourTests {
    /// A daemon with the Tasks fixture loaded and w1 added, showing its first timeline.
    static func tasks(config: String = "[limits]\nintent_timeout = \"1s\"\n") throws -> (RealDaemon, ControlClient) {
        let daemon = try RealDaemon(config: config)
        try RealDaemon.writeFixture("Tasks", into: daemon.directory + "/plugins", script: RealDaemon.intentsScript)
        let rescan = try daemon.cli("rescan")
        try #require(rescan.status == 0, "\(rescan.stderr)")
        let client = try ControlClient(socketPath: daemon.socket)
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "TasksWidget", family: .systemSmall))
        try #require(try Self.done(client) == 0)
        return (daemon, client)
    }

    /// The count w1 shows, once it shows a timeline (and, with `atLeast`, once it reaches it).
    static func done(_ client: ControlClient, atLeast: Int = 0) throws -> Int? {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let status: StatusResult = try client.call(.status, params: StatusParams(id: "w1"))
            let current = status.widgets.first?.currentEntry
            if current?.source == .timeline, case .integer(let done)? = current?.entry?.content["done"], done >= atLeast {
                return done
            }
            if Date() > deadline { return nil }
            usleep(20_000)
        }
    }

    /// Collects every notice from `subscribe` on its own connection until `stop(after:)`.
    final class EventLog: @unchecked Sendable {
        let notices = Mutex<[HostNotice]>([])
        private let stopped = Atomic(false)
        private let finished = DispatchSemaphore(value: 0)

        /// Subscribes, and pokes (something that makes a notice) until the first notice arrives.
        init(socket: String, poke: () throws -> Void) throws {
            Thread.detachNewThread { [self] in
                let client = try? ControlClient(socketPath: socket)
                _ = try? client?.subscribe(idleTimeout: .seconds(60)) { notice in
                    notices.withLock { $0.append(notice) }
                    return !stopped.load(ordering: .relaxed)
                }
                finished.signal()
            }
            let deadline = Date().addingTimeInterval(10)
            while notices.withLock({ $0.isEmpty }) && Date() < deadline {
                try poke()
                usleep(100_000)
            }
        }

        /// Stops at the next notice, which `poke` makes happen.
        func stop(poke: () throws -> Void) rethrows -> [HostNotice] {
            stopped.store(true, ordering: .relaxed)
            try poke()
            _ = finished.wait(timeout: .now() + 10)
            return notices.withLock { $0 }
        }
    }

    struct BadPerform: Sendable, CustomTestStringConvertible {
        var button: String
        var outcome: IntentOutcome
        /// What the reason must say.
        var reason: String
        var testDescription: String { "\(button): \(outcome.rawValue)" }
    }

    static let badPerforms: [BadPerform] = [
        BadPerform(button: "Hang", outcome: .timedOut, reason: "s to intent/perform (limits.intent_timeout = 1.0s); its process was killed"),
        BadPerform(button: "Crash", outcome: .crashed, reason: "the extension crashed: exited with status 3"),
        BadPerform(button: "Garbage", outcome: .protocolError, reason: "protocol error: "),
        BadPerform(button: "Hog", outcome: .memoryLimitExceeded, reason: "exceeded limits.memory = 30.0 MiB; its process was killed"),
    ]

    @Test("A hang, a crash, garbage and a memory hog each get their reason in the answer, status and events; the next tap works")
    func badPerformsAreReported() throws {
        let (daemon, client) = try Self.tasks()
        let events = try EventLog(socket: daemon.socket) {
            let _: ReloadResult = try client.call(
                .reloadTimelines, params: ReloadTimelinesParams(kind: "TasksWidget", foreground: true))
        }
        var expectedDone = 0
        for bad in Self.badPerforms {
            let tapped: TapResult = try client.call(.tap, params: TapParams(id: "w1", button: bad.button))
            #expect(tapped.outcome == bad.outcome, "\(bad.button): \(tapped)")
            #expect(tapped.detail?.contains(bad.reason) == true, "\(bad.button): \(tapped.detail ?? "no detail")")
            #expect(tapped.reload == nil, "a failed intent reloads nothing")
            let status: StatusResult = try client.call(.status, params: StatusParams(id: "w1"))
            let diagnostic = status.widgets.first?.diagnostics.last
            #expect(diagnostic?.code == "intentFailed")
            #expect(diagnostic?.message.hasPrefix("\(bad.button) \(bad.outcome.rawValue): ") == true, "\(diagnostic?.message ?? "none")")
            #expect(diagnostic?.message.contains(bad.reason) == true)
            // The daemon goes on serving: the next tap starts a fresh process and reloads w1.
            let good: TapResult = try client.call(.tap, params: TapParams(id: "w1", button: "Done"))
            #expect(good.outcome == .succeeded, "after \(bad.button): \(good)")
            #expect(good.reload?.outcome == .started && good.reload?.budgeted == false)
            expectedDone = 1  // the count lives in the process, which was killed
            #expect(try Self.done(client, atLeast: expectedDone) == expectedDone, "after \(bad.button)")
        }
        let notices = try events.stop { _ = try client.call(.tap, params: TapParams(id: "w1", button: "Done")) as TapResult }
        for bad in Self.badPerforms {
            let finished = notices.compactMap { notice -> (IntentOutcome, String?)? in
                guard case .intentFinished(_, "w1", nil, _, bad.button, let outcome, _, let detail) = notice else { return nil }
                return (outcome, detail)
            }
            #expect(finished.count == 1, "\(bad.button): \(finished)")
            #expect(finished.first?.0 == bad.outcome)
            #expect(finished.first?.1?.contains(bad.reason) == true, "\(bad.button): \(finished)")
        }
        let kills = notices.compactMap { notice -> ReloadResultKind? in
            if case .extensionKilled("com.fixture.tasks.widget", "w1", _, let result, _, _, _) = notice { result } else { nil }
        }
        // Every failure ends the process (a crash's group too, so nothing it forked lives on).
        #expect(kills == Self.badPerforms.map { ReloadResultKind(rawValue: $0.outcome.rawValue) }, "\(kills)")
        let succeeded = notices.filter { if case .intentFinished(_, _, _, _, "Mark done", .succeeded, _, _) = $0 { true } else { false } }
        #expect(succeeded.count >= Self.badPerforms.count)
    }

    @Test("A Toggle whose intent fails rolls back, and one that succeeds stays on, as the CLI shows")
    func toggleRollbackFromTheCLI() throws {
        let (daemon, client) = try Self.tasks()
        let fan = try daemon.cli("tap", "w1", "Fan")
        #expect(fan.status == 0, "\(fan.stderr)")
        #expect(fan.stdout.contains("Fan failed in "), "\(fan.stdout)")
        #expect(fan.stdout.contains(" — the fan is unplugged; now off"), "\(fan.stdout)")
        #expect(!fan.stdout.contains("reload"), "a failed intent reloads nothing: \(fan.stdout)")
        let status = try daemon.cli("status", "w1")
        #expect(status.stdout.contains("intentFailed"), "\(status.stdout)")
        #expect(status.stdout.contains("Fan failed: the fan is unplugged; the toggle is back to off"), "\(status.stdout)")

        let lamp = try daemon.cli("tap", "w1", "Lamp")
        #expect(lamp.stdout.contains("Lamp succeeded in "), "\(lamp.stdout)")
        #expect(lamp.stdout.contains("; now on; w1 reload started"), "\(lamp.stdout)")
        // The reload draws the toggle on: the extension got isOn = true.
        let deadline = Date().addingTimeInterval(10)
        var shown: JSONValue?
        repeat {
            let result: StatusResult = try client.call(.status, params: StatusParams(id: "w1"))
            shown = result.widgets.first?.currentEntry.entry?.content["lamp"]
        } while shown != true && Date() < deadline && usleep(20_000) == 0
        #expect(shown == true)
    }
}
