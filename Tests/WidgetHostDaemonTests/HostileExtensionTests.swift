import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol
@testable import WidgetHostDaemon

/// One misbehaving extension from Tests/Fixtures/Extensions/extension.py and what the host must say about it.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var bundle: String
    var expected: ReloadResultKind
    var detail: String
    /// How long the misbehaviour may take to be noticed (the limit), before the 500 ms margin.
    var limit: TimeInterval
    var testDescription: String { bundle }
}

/// Short limits so that the gallery runs in seconds; the defaults are tested in the core.
private let timelineTimeout: TimeInterval = 2

@Suite("Hostile extensions", .tags(.process), .serialized)
struct HostileExtensionTests {
    static let cases: [HostileCase] = [
        HostileCase(bundle: "Sleeper", expected: .timedOut, detail: "no reply after", limit: timelineTimeout),
        HostileCase(bundle: "Allocator", expected: .memoryLimitExceeded, detail: "exceeded limits.memory", limit: 1),
        HostileCase(bundle: "ChildAllocator", expected: .memoryLimitExceeded, detail: "exceeded limits.memory", limit: 1.5),
        HostileCase(bundle: "Crasher", expected: .crashed, detail: "exited with status 3", limit: 0.2),
        HostileCase(bundle: "Garbage", expected: .protocolError, detail: "not a JSON-RPC message", limit: 0.2),
        HostileCase(bundle: "WrongID", expected: .protocolError, detail: "reply for unknown id 987654", limit: 0.2),
        HostileCase(bundle: "Flooder", expected: .protocolError, detail: "stdout line longer than", limit: 1),
        HostileCase(bundle: "OutOfOrder", expected: .protocolError, detail: "reply for unknown id", limit: 0.2),
    ]

    @Test("A hostile extension gets the right outcome in time; the previous timeline stays; others keep their schedule",
        arguments: cases)
    func hostile(_ hostile: HostileCase) throws {
        let fixture = try DaemonFixture(
            extensions: ["WellBehaved", hostile.bundle],
            configure: {
                $0.limits.timelineTimeout = timelineTimeout
                $0.policy.minReloadInterval = 1
                $0.budget.enforce = false
            },
            environment: ["WIDGETHOST_FIXTURE_POLICY_MINUTES": "0.02", "WIDGETHOST_FIXTURE_GOOD_FIRST": "1"])
        let client = try fixture.client()
        let events = try fixture.client()
        _ = try events.call("subscribe")

        let good: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        let bad: AddWidgetResult = try client.result(
            "addWidget", ["kind": .string(hostile.bundle + "Widget"), "family": "systemSmall"])
        let first = events.nextNotice { $0.type == .reloadFinished && $0.widgetId == bad.widget.id }
        #expect(first?.result == .success, "the first timeline is served properly")

        let asked = Date()
        let reload: ReloadResult = try client.result(
            "reloadTimelines", ["kind": .string(hostile.bundle + "Widget"), "foreground": true])
        // The bad widget's own policy reload (due 1.2 s after the first) may already be running
        // on a loaded machine; then this request follows it, and whichever runs misbehaves.
        let outcome = reload.outcomes.first
        #expect(outcome?.outcome == .started || outcome?.reason == .reloadInProgress, "\(String(describing: outcome))")

        var statusLatencies: [TimeInterval] = []
        var finished: HostNotice?
        var goodStarts: [HostNotice] = []
        while finished == nil, Date().timeIntervalSince(asked) < hostile.limit + 3 {
            let before = Date()
            _ = try client.result("status", as: StatusResult.self)
            statusLatencies.append(Date().timeIntervalSince(before))
            if let notice = events.nextNotice(timeout: 0.05, where: { _ in true }) {
                if notice.type == .reloadFinished, notice.widgetId == bad.widget.id { finished = notice }
                if notice.type == .reloadStarted, notice.widgetId == good.widget.id { goodStarts.append(notice) }
            }
        }
        let elapsed = Date().timeIntervalSince(asked)
        #expect(finished?.result == hostile.expected)
        #expect(finished?.detail?.contains(hostile.detail) == true, "detail: \(finished?.detail ?? "none")")
        #expect(elapsed <= hostile.limit + 0.5 + 0.3, "noticed after \(elapsed) s")  // 0.3 s for this test's own polling

        let status: StatusResult = try client.result("status", ["id": .string(bad.widget.id)])
        let widget = try #require(status.widgets.first)
        #expect(widget.lastOutcome?.result == hostile.expected)
        #expect(widget.currentEntry.source == .timeline)
        #expect(widget.currentEntry.entry?.content["text"] != nil, "the previous timeline stays")
        #expect(widget.backoff.consecutiveFailures == 1)

        #expect((statusLatencies.max() ?? 0) < 0.1, "status took \(statusLatencies.max() ?? 0) s")
        for start in goodStarts {
            let lateness = start.at.timeIntervalSince(start.requestedAt ?? start.at)
            #expect(lateness < 0.1, "the well-behaved widget's reload started \(lateness) s after it was due")
        }
    }

    @Test("A child that outlives its extension dies with it; no zombie or orphan remains")
    func noOrphans() throws {
        let directory: String
        do {
            let fixture = try DaemonFixture(
                extensions: ["Forker"], configure: { $0.extensionLifecycle.idleTimeout = 0.5 })
            directory = fixture.directory
            let client = try fixture.client()
            let events = try fixture.client()
            _ = try events.call("subscribe")
            _ = try client.call("addWidget", ["kind": "ForkerWidget", "family": "systemSmall"])
            #expect(events.nextNotice { $0.type == .reloadFinished }?.result == .success)
            #expect(processes(mentioning: directory).count >= 1, "the forked child is running")
            #expect(events.nextNotice { $0.type == .extensionStopped } != nil)
            #expect(try waitUntil(timeout: 5) { processes(mentioning: directory).isEmpty })
        }
        #expect(processes(mentioning: directory).isEmpty)
        // Another suite's daemon may have a child that died a moment ago and is being reaped.
        #expect(try waitUntil(timeout: 3) { zombieChildren().isEmpty }, "unreaped: \(zombieChildren())")
    }

    @Test("10 MiB on stderr goes to the log; the reply still arrives and the daemon stays responsive")
    func stderrFlood() throws {
        let fixture = try DaemonFixture(extensions: ["StderrFlood"])
        let client = try fixture.client()
        let events = try fixture.client()
        _ = try events.call("subscribe")
        _ = try client.call("addWidget", ["kind": "StderrFloodWidget", "family": "systemSmall"])
        #expect(events.nextNotice { $0.type == .reloadFinished }?.result == .success)
        #expect(throws: Never.self) { try client.result("status", as: StatusResult.self) }
    }

    @Test("An extension that answers twice is stopped; its duplicate is never charged to the next request")
    func repliesTwice() throws {
        let fixture = try DaemonFixture(extensions: ["Twice"], configure: { $0.budget.enforce = false })
        let client = try fixture.client()
        let events = try fixture.client()
        _ = try events.call("subscribe")
        _ = try client.call("addWidget", ["kind": "TwiceWidget", "family": "systemSmall"])
        #expect(events.nextNotice { $0.type == .reloadFinished }?.result == .success)
        usleep(200_000)
        _ = try client.call("reloadTimelines", ["kind": "TwiceWidget"])
        #expect(events.nextNotice { $0.type == .reloadFinished }?.result == .success)
    }
}

/// Live processes whose environment mentions `text` (the fixture's unique directory is in
/// WIDGETHOST_BUNDLE, which children inherit).
func processes(mentioning text: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
            .split(separator: ")").last?.split(separator: " ").first
        return state != "Z" && String(decoding: data, as: UTF8.self).contains(text)
    }
}

/// Children of this test process that exited and were never reaped.
func zombieChildren() -> [Int32] {
    let me = getpid()
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2
        else { return false }
        return fields[0] == "Z" && Int32(fields[1]) == me
    }
}
