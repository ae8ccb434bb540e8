import Foundation
import NIOCore
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Reloads due at one instant cost the daemon one timer firing and one write to their
/// extension, and nothing wakes it between those instants (issue 16: host wake-ups against
/// i3blocks; docs/benchmarks.md figure 6).
@Suite("Wake-ups", .tags(.process))
struct WakeUpTests {
    static let widgets = 6
    static let mark = 3.0

    struct Counts: Equatable {
        var firings: Int
        var writes: Int
    }

    static func counts(_ fixture: DaemonFixture) throws -> Counts {
        // Unowned: the task is released on the loop after `wait()` returns, and if it held the
        // fixture's last reference, the fixture's deinit would wait for the loop on the loop.
        try fixture.daemon.eventLoop.submit { [unowned fixture] in
            Counts(firings: fixture.daemon.runtime.timerFirings, writes: fixture.daemon.runtime.supervisor.flushedWrites)
        }.wait()
    }

    /// Sleeps until `offset` seconds past the next multiple of `mark` (the wall clock's).
    static func sleep(untilPastMark offset: Double) -> Date {
        let now = Date().timeIntervalSince1970
        let next = (floor(now / mark) + 1) * mark
        usleep(UInt32((next + offset - now) * 1_000_000))
        return Date(timeIntervalSince1970: next)
    }

    @Test("Widgets due at one instant: one timer firing and one write per instant, and no wake-up in between")
    func oneWakeUpPerInstant() throws {
        let fixture = try DaemonFixture(
            configure: {
                $0.policy.minReloadInterval = 0
                $0.budget.enforce = false
                // A request's timeout that is dropped when it is answered must not wake the loop later.
                $0.limits.timelineTimeout = 1
            },
            environment: [
                "WIDGETHOST_FIXTURE_POLICY_MARK_SECONDS": String(Int(Self.mark)), "WIDGETHOST_FIXTURE_PIPELINING": "1",
            ])
        let client = try fixture.client()
        let events = try fixture.client()
        _ = try events.call("subscribe")
        var ids: [String] = []
        for _ in 0..<Self.widgets {
            let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
            ids.append(added.widget.id)
        }
        let thread = try fixture.daemon.eventLoop.submit { IdleTests.currentThread() }.wait()

        // Past the first instant at which all are due (their first timelines came from the adds).
        _ = Self.sleep(untilPastMark: 0.6)
        var instants: [Date] = []
        var quiet: [Int] = []
        let before = try Self.counts(fixture)
        for _ in 0..<2 {
            instants.append(Self.sleep(untilPastMark: 0.6))
            // The round is over well before the next instant: the loop sleeps until it.
            let switches = IdleTests.contextSwitches(thread)
            usleep(1_500_000)
            quiet.append((IdleTests.contextSwitches(thread) ?? 0) - (switches ?? 0))
        }
        let after = try Self.counts(fixture)

        #expect(after.firings - before.firings == 2, "timer firings: \(after.firings - before.firings) for 2 instants")
        #expect(after.writes - before.writes == 2, "writes to the extension: \(after.writes - before.writes) for 2 instants")
        #expect(quiet == [0, 0], "the event loop woke between instants")
        // Every widget's reload fell due at each instant, and all started in the one step.
        var started: [Date: [(id: String, at: Date)]] = [:]
        // Read in order from the subscription, until both instants' rounds are in (reloads go on every few seconds).
        let end = Date() + 10
        while Date() < end, instants.contains(where: { (started[$0]?.count ?? 0) < Self.widgets }),
            let notice = events.nextNotice(timeout: 5, where: { $0.type == .reloadStarted })
        {
            if let id = notice.widgetId, let due = notice.requestedAt { started[due, default: []].append((id, notice.at)) }
        }
        for instant in instants {
            let round = started[instant] ?? []
            #expect(Set(round.map(\.id)) == Set(ids), "reloads due at \(instant): \(round.map(\.id))")
            #expect(Set(round.map(\.at)).count == 1, "started at \(Set(round.map(\.at)))")
        }
    }
}
