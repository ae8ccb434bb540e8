import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Refresh budget")
struct BudgetTests {
    @Test("The budget is a sliding 24-hour window", arguments: [40, 55, 70])
    func slidingWindow(budget: Int) {
        // Reloads every 6 minutes exhaust B; then one frees up each time the oldest turns 24 h old.
        var test = TestHost()
        let id = test.add(pinned: budget)
        var starts: [Date] = []
        for index in 1...budget {
            test.advance(to: t0 + .minutes(6) * Double(index))
            #expect(test.reload().outcome == .started)
            starts.append(test.now)
        }
        test.advance(by: .minutes(6))
        let deferred = test.reload()
        #expect(deferred.outcome == .deferred)
        #expect(deferred.reason == .budgetExhausted)
        #expect(deferred.until == starts[0] + .days(1))

        test.advance(to: starts[0] + .days(1) - 1)
        #expect(test.started(id, budgeted: true).count == budget)
        test.advance(to: starts[0] + .days(1))
        #expect(test.started(id, budgeted: true).count == budget + 1)
        #expect(test.status(id).budget.used == budget)
    }

    @Test("Each reload outcome carries the instance's budget after it, as status has it, and the reply the host's now")
    func outcomeCarriesTheBudget() {
        var test = TestHost()
        let id = test.add(pinned: 3)
        var seen: [BudgetUsage?] = []
        for (minute, origin) in [(6.0, ReloadOrigin.background), (12, .background), (18, .background), (24, .background), (30, .foreground)] {
            test.advance(to: t0 + .minutes(minute))
            let step = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil), origin: origin)))
            guard case .reload(let result)? = step.reply else {
                Issue.record("no reload reply: \(String(describing: step.reply))")
                return
            }
            #expect(result.now == test.now)
            let budget = result.outcomes.first?.budget
            let status = test.status(id).budget
            #expect(budget == BudgetUsage(used: status.used, limit: status.limit))
            seen.append(budget)
        }
        // Three budgeted starts, a deferral for the exhausted budget, an exempt start that costs nothing.
        #expect(seen == [1, 2, 3, 3, 3].map { BudgetUsage(used: $0, limit: 3) })
    }

    @Test("Window counting: a start exactly 24 h ago no longer counts")
    func windowBoundary() {
        let ledger = [t0, t0 + .hours(1)]
        #expect(SlidingWindowBudget.used(ledger, window: .days(1), at: t0 + .days(1) - 1) == 2)
        #expect(SlidingWindowBudget.used(ledger, window: .days(1), at: t0 + .days(1)) == 1)
        #expect(SlidingWindowBudget.nextFreeSlot(ledger, limit: 2, window: .days(1), at: t0 + .hours(2)) == t0 + .days(1))
        #expect(SlidingWindowBudget.nextFreeSlot(ledger, limit: 3, window: .days(1), at: t0 + .hours(2)) == t0 + .hours(2))
        // B fell below the count: two must age out before there is room.
        #expect(
            SlidingWindowBudget.nextFreeSlot(ledger, limit: 1, window: .days(1), at: t0 + .hours(2))
                == t0 + .hours(1) + .days(1))
    }

    @Test(
        "B = round(min + (max − min) · e) with e = min(1, views / full_engagement_views)",
        arguments: [
            // (min, max, full, views, expected B)
            (40, 70, 12, 0, 40), (40, 70, 12, 6, 55), (40, 70, 12, 12, 70), (40, 70, 12, 30, 70),
            (40, 70, 12, 1, 43), (10, 20, 4, 1, 13), (10, 20, 4, 2, 15), (10, 20, 4, 8, 20),
        ])
    func engagementFormula(min: Int, max: Int, full: Int, views: Int, expected: Int) {
        var rules = BudgetRules()
        rules.min = min
        rules.max = max
        rules.fullEngagementViews = full
        let now = t0 + .days(10)
        let viewTimes = (0..<views).map { now - .minutes(Double($0 + 1)) }
        let budget = DailyBudget(rules: rules, pinned: nil, addedAt: t0, views: viewTimes, at: now)
        #expect(budget.limit == expected)
        #expect(!budget.learning)
    }

    @Test("Views older than 24 hours do not count towards engagement")
    func oldViewsExpire() {
        let now = t0 + .days(10)
        let views = (0..<12).map { now - .days(1) - .minutes(Double($0)) }
        #expect(DailyBudget(rules: BudgetRules(), pinned: nil, addedAt: t0, views: views, at: now).limit == 40)
    }

    @Test("During the learning period after being added, e = 1", arguments: [72.0, 24.0])
    func learningPeriod(hours: Double) {
        var rules = BudgetRules()
        rules.learningPeriod = .hours(hours)
        let inside = DailyBudget(rules: rules, pinned: nil, addedAt: t0, views: [], at: t0 + .hours(hours) - 1)
        let after = DailyBudget(rules: rules, pinned: nil, addedAt: t0, views: [], at: t0 + .hours(hours))
        #expect(inside.learning && inside.limit == 70)
        #expect(!after.learning && after.limit == 40)
    }

    @Test("Recorded views raise B after the learning period and can free a deferred reload")
    func viewsRaiseTheBudget() {
        var configuration = HostConfiguration()
        configuration.budget.learningPeriod = 0
        configuration.budget.min = 2
        configuration.budget.max = 4
        configuration.budget.fullEngagementViews = 2
        var test = TestHost(configuration: configuration)
        let id = test.add()
        #expect(test.status(id).budget.limit == 2)
        for minute in [10.0, 20.0] {
            test.advance(to: t0 + .minutes(minute))
            #expect(test.reload().outcome == .started)
        }
        test.advance(to: t0 + .minutes(30))
        let deferred = test.reload()
        #expect(deferred.reason == .budgetExhausted)
        test.handle(.viewRecorded(id))
        #expect(test.status(id).budget.limit == 3)
        // The third reload starts at once: the view made room for it.
        #expect(test.started(id, budgeted: true).count == 3)
    }

    @Test("budget.pinned pins B per kind, overriding engagement", arguments: [5, 90])
    func pinnedByConfiguration(budget: Int) {
        let configuration = config { $0.budget.pinned = ["BirthdayHomeWidget": budget] }
        var test = TestHost(configuration: configuration)
        let pinned = test.add()
        let other = test.add("WeatherWidget")
        #expect(test.status(pinned).budget.limit == budget)
        #expect(test.status(pinned).budget.pinned)
        #expect(test.status(other).budget.limit == 70)
    }

    @Test("Several instances of one kind each have their own budget")
    func perInstanceBudgets() {
        var test = TestHost()
        let small = test.add(pinned: 1)
        let medium = test.add("BirthdayHomeWidget", .systemMedium, pinned: 2)
        test.advance(by: .minutes(10))
        let step = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil))))
        guard case .reload(let result)? = step.reply else { Issue.record("no reply"); return }
        #expect(result.outcomes.map(\.outcome) == [.started, .started])
        test.advance(by: .minutes(10))
        let second = test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil))))
        guard case .reload(let again)? = second.reply else { Issue.record("no reply"); return }
        #expect(again.outcomes.first { $0.id == small.rawValue }?.reason == .budgetExhausted)
        #expect(again.outcomes.first { $0.id == medium.rawValue }?.outcome == .started)
    }

    @Test("budget.enforce = false makes every reload exempt, as under a debugger")
    func enforcementOff() {
        var test = TestHost(configuration: config { $0.budget.enforce = false })
        let id = test.add(pinned: 1)
        for minute in stride(from: 1.0, through: 10, by: 1) {
            test.advance(to: t0 + .minutes(minute))
            #expect(test.reload().outcome == .started)
        }
        #expect(test.started(id, budgeted: true).isEmpty)
        #expect(test.started(id).count == 11)
        #expect(test.started(id).dropFirst().allSatisfy { $0.charge == .exempt(.budgetNotEnforced) })
    }
}
