import Foundation
import Testing
import WidgetHostHarness

/// The core's day simulations (Tests/WidgetHostCoreTests/DaySimulationTests), written as
/// scenarios and run through the harness: the figures must be the core's.
@Suite("Day simulations through the harness")
struct HarnessDaySimulationTests {
    static func everyTenMinutes(source: String, duration: String = "24h", foreground: String = "") -> String {
        """
        [simulation]
        start = "2026-02-15T00:00:00Z"
        duration = "\(duration)"

        [[widget]]
        kind = "BirthdayHomeWidget"
        \(source)
        budget = 70

        [[app]]
        id = "com.birthdayreminders"
        reloads = [ { kind = "BirthdayHomeWidget", every = "10m", from = "00:10" } ]
        \(foreground)
        """
    }

    @Test("B pinned at 70, a background reload every 10 minutes: 70 budgeted, the 71st (11:50) deferred to 00:10 next day")
    func pinnedBudgetExhaustsAtNoon() throws {
        let fixture = try HarnessFixture()
        let result = try fixture.run(Self.everyTenMinutes(source: #"provider = { policy = "never" }"#))
        let widget = try #require(result.widget("w1"))
        #expect(widget.budgetedReloads == 70)
        #expect(widget.exemptReloads == 1)
        #expect(widget.budget == 70)
        #expect(widget.exhaustedAt == t0.at("11:50"))
        // 143 requests from 00:10 to 23:50; from 11:50 on every one waits in one deferred reload.
        #expect(widget.requests == 143)
        #expect(widget.deferred == 1)
        #expect(widget.coalesced == 143 - 70 - 1)
        #expect(widget.deferredBy == ["budgetExhausted": 1])
        // Still waiting at midnight: 12 h 10 min stale, the longest wait.
        #expect(widget.longestStaleSeconds == t0.at("00:00", dayOffset: 1).timeIntervalSince(t0.at("11:50")))
        let until = try #require(
            result.events.compactMap { if case .notice(.reloadDeferred(_, _, _, _, let until, _)) = $0 { until } else { nil } }.first)
        #expect(until == t0.at("00:10", dayOffset: 1))
    }

    @Test("In the foreground 08:00–09:00 those reloads are exempt and the budget lasts an hour longer")
    func foregroundHourStretchesTheBudget() throws {
        let fixture = try HarnessFixture()
        let result = try fixture.run(
            Self.everyTenMinutes(
                source: #"provider = { policy = "never" }"#, foreground: #"foreground = [ { from = "08:00", for = "1h" } ]"#))
        let widget = try #require(result.widget("w1"))
        #expect(widget.budgetedReloads == 70)
        #expect(widget.exemptReloads == 1 + 6)
        #expect(widget.exhaustedAt == t0.at("12:50"))
    }

    @Test("A provider returning .after(+15m) with pinned B is exhausted after B policy reloads", arguments: [40, 55])
    func policyReloadsExhaustTheBudget(budget: Int) throws {
        let fixture = try HarnessFixture()
        let result = try fixture.run(
            """
            [simulation]
            start = "2026-02-15T00:00:00Z"
            duration = "24h"

            [[widget]]
            kind = "Ticker"
            provider = { policy = "after", every = "15m" }
            budget = \(budget)
            """)
        let widget = try #require(result.widget("w1"))
        #expect(widget.budgetedReloads == budget)
        #expect(widget.requests == 0)
        #expect(widget.exhaustedAt == t0 + 15 * 60 * Double(budget + 1))
        #expect(widget.deferredBy == ["budgetExhausted": 1])
    }

    @Test("The same day with a real extension process (under libfaketime) gives the same figures")
    func realExtensionGivesTheSameFigures() throws {
        let fixture = try HarnessFixture()
        let bundle = try fixture.fixtureBundle("WellBehaved")
        let scenario = Self.everyTenMinutes(source: "extension = \"\(bundle)\"", duration: "12h")
            .replacingOccurrences(of: "BirthdayHomeWidget", with: "WellBehavedWidget")
            .replacingOccurrences(of: "com.birthdayreminders", with: "com.example.wellbehaved")
        let result = try fixture.run(scenario)
        let widget = try #require(result.widget("w1"))
        #expect(widget.source == "WellBehaved.appex")
        #expect(widget.budgetedReloads == 70)
        #expect(widget.exemptReloads == 1)
        #expect(widget.exhaustedAt == t0.at("11:50"))
        #expect(widget.crashes == 0 && widget.timeouts == 0 && widget.memoryKills == 0)
    }

    @Test(
        "The BirthdayReminders extension over the same day gives the same figures",
        .enabled(if: HarnessFixture.birthdayBundle != nil, "run `make plugins` to build .build/examples/BirthdayReminders.appex"))
    func birthdayExtensionGivesTheSameFigures() throws {
        let fixture = try HarnessFixture()
        let bundle = try #require(HarnessFixture.birthdayBundle)
        let result = try fixture.run(Self.everyTenMinutes(source: "extension = \"\(bundle)\"", duration: "12h"))
        let widget = try #require(result.widget("w1"))
        #expect(widget.budgetedReloads == 70)
        #expect(widget.exemptReloads == 1)
        #expect(widget.exhaustedAt == t0.at("11:50"))
        #expect(widget.crashes == 0 && widget.timeouts == 0 && widget.memoryKills == 0)
    }
}
