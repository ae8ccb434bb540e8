import Foundation
import Testing
import WidgetHostHarness
import WidgetHostProtocol

/// Real extension processes in a simulation: libfaketime gives them the virtual now, while
/// the deadline and the memory limit stay real.
@Suite("Real extensions in a simulation")
struct RealExtensionTests {
    /// What the clock extension said it saw, by the instant the host asked it.
    private func seen(in result: SimulationResult) -> [(asked: Date, seen: Date)] {
        result.events.compactMap { event in
            guard case .notice(.entryChanged(_, let at, let entry?, .timeline)) = event, case .object(let content) = entry.content,
                case .string(let text)? = content["seen"], let seen = RFC3339.parse(text)
            else { return nil }
            return (at, seen)
        }
    }

    @Test("An extension that calls Date() sees the simulated date, at the start and after the clock jumped")
    func extensionSeesTheSimulatedDate() throws {
        let fixture = try HarnessFixture()
        let bundle = try fixture.pythonBundle("Clock", id: "com.example.clock.widget", script: HarnessFixture.clockScript)
        let result = try fixture.run(
            """
            [simulation]
            start = "2031-07-04T06:00:00Z"
            duration = "12h"

            [[widget]]
            kind = "ClockWidget"
            extension = "\(bundle)"

            [[app]]
            id = "com.example.clock"
            reloads = [ { kind = "ClockWidget", at = ["09:30", "17:45"] } ]
            """)
        let answers = seen(in: result)
        let start = try #require(RFC3339.parse("2031-07-04T06:00:00Z"))
        // Asked at 06:00 (when added), 09:30 and 17:45; the reply lands a real run time later.
        let expected = [start, start + 3.5 * 3600, start + 11.75 * 3600]
        #expect(answers.count == expected.count)
        for (answer, asked) in zip(answers, expected) {
            #expect(abs(answer.asked.timeIntervalSince(asked)) < 3)
        }
        for answer in answers {
            // The process started at the virtual instant; only its real run time separates them.
            #expect(abs(answer.seen.timeIntervalSince(answer.asked)) < 3, "asked at \(answer.asked), it saw \(answer.seen)")
        }
    }

    @Test("An extension that allocates 64 MiB is killed at the memory limit, a real one")
    func memoryLimitIsReal() throws {
        let fixture = try HarnessFixture()
        let bundle = try fixture.fixtureBundle("Allocator")
        let result = try fixture.run(
            """
            [simulation]
            start = "2026-02-15T00:00:00Z"
            duration = "50s"

            [[widget]]
            kind = "AllocatorWidget"
            extension = "\(bundle)"
            """)
        let widget = try #require(result.widget("w1"))
        #expect(widget.memoryKills == 1)
        #expect(widget.timeouts == 0)
        // The failure backs off for 1 min, past the end: one reload, one kill.
        #expect(widget.exemptReloads == 1)
        #expect(widget.budgetedReloads == 0)
    }

    @Test("An extension that never answers times out after the real timeline_timeout")
    func deadlineIsReal() throws {
        let fixture = try HarnessFixture()
        let bundle = try fixture.fixtureBundle("Sleeper")
        let clock = ContinuousClock()
        let started = clock.now
        let result = try fixture.run(
            """
            [simulation]
            start = "2026-02-15T00:00:00Z"
            duration = "30m"

            [host]
            limits = { timeline_timeout = "1s" }
            backoff = { initial = "1h" }

            [[widget]]
            kind = "SleeperWidget"
            extension = "\(bundle)"
            """)
        let widget = try #require(result.widget("w1"))
        #expect(widget.timeouts == 1)
        #expect(clock.now - started >= .seconds(1))
        let killed = result.events.contains { if case .notice(let n) = $0 { n.type == .extensionKilled && n.result == .timedOut } else { false } }
        #expect(killed)
    }
}
