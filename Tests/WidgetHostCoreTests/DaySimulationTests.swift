import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// Whole days inside the core with explicit instants: the scenarios of the core issue.
@Suite("Day simulations")
struct DaySimulationTests {
    /// A background `reloadTimelines` every 10 minutes from 00:10 until the end of the day.
    private func backgroundEvery10Minutes(
        _ test: inout TestHost, foreground: ClosedRange<Date>? = nil
    ) -> [(Date, WidgetReloadOutcome)] {
        var outcomes: [(Date, WidgetReloadOutcome)] = []
        var time = t0.at("00:10")
        while time < t0 + .days(1) {
            test.advance(to: time)
            let inForeground = foreground.map { $0.contains(time) && time < $0.upperBound } ?? false
            outcomes.append((time, test.reload(origin: inForeground ? .foreground : .background)))
            time += .minutes(10)
        }
        test.advance(to: t0 + .days(1) - 1)
        return outcomes
    }

    @Test("B pinned at 70, a reload every 10 minutes: 70 budgeted reloads, the 71st (11:50) deferred to 00:10 next day")
    func pinnedBudgetExhaustsAtNoon() {
        var test = TestHost()
        let id = test.add(pinned: 70)
        let outcomes = backgroundEvery10Minutes(&test)

        #expect(test.started(id, budgeted: true).count == 70)
        #expect(test.started(id, budgeted: false).count == 1)  // the exempt reload when added
        let seventyFirst = outcomes.first { $0.1.outcome != .started }
        #expect(seventyFirst?.0 == t0.at("11:50"))
        #expect(seventyFirst?.1.outcome == .deferred)
        #expect(seventyFirst?.1.reason == .budgetExhausted)
        #expect(seventyFirst?.1.until == t0.at("00:10", dayOffset: 1))
        // Every later request merges into that one deferred reload.
        let later = outcomes.filter { $0.0 > t0.at("11:50") }
        #expect(!later.isEmpty)
        #expect(later.allSatisfy { $0.1.outcome == .coalesced && $0.1.until == t0.at("00:10", dayOffset: 1) })
        #expect(test.status(id).budget.used == 70)
    }

    @Test("In the foreground 08:00–09:00 those reloads are exempt and the budget lasts an hour longer")
    func foregroundHourStretchesTheBudget() {
        var test = TestHost()
        let id = test.add(pinned: 70)
        let outcomes = backgroundEvery10Minutes(&test, foreground: t0.at("08:00")...t0.at("09:00"))

        #expect(test.started(id, budgeted: true).count == 70)
        #expect(test.started(id, budgeted: false).count == 1 + 6)  // added + 08:00…08:50
        let firstDeferred = outcomes.first { $0.1.outcome != .started }
        #expect(firstDeferred?.0 == t0.at("12:50"))
        #expect(firstDeferred?.1.reason == .budgetExhausted)
    }

    @Test("A provider returning .after(+15m) with B = 40 is exhausted after 40 policy reloads", arguments: [40, 55])
    func policyReloadsExhaustTheBudget(budget: Int) {
        var test = TestHost(provider: { params in
            .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .minutes(15))))
        })
        let id = test.add(pinned: budget)
        test.advance(to: t0 + .days(1) - 1)

        #expect(test.started(id, budgeted: true).count == budget)
        let exhausted = test.notices(.reloadDeferred, id).lazy.compactMap { notice -> (at: Date, until: Date?)? in
            guard case .reloadDeferred(_, let at, _, _, let until, .budgetExhausted) = notice else { return nil }
            return (at, until)
        }.first
        #expect(exhausted?.at == t0 + .minutes(15) * Double(budget + 1))
        #expect(exhausted?.until == t0 + .minutes(15) + .days(1))
        #expect(test.status(id).nextReload.deferredBy == .budgetExhausted)
    }
}
