import Foundation
import PropertyBased
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// Random streams of requests, views and failures against the invariants of the rules.
@Suite("Properties")
struct PropertyTests {
    /// (minutes since the previous step, action, widget)
    static let steps = zip(Gen.int(in: 0...90), Gen.int(in: 0...9), Gen.int(in: 0...2)).array(of: 10...160)
    /// Whether the provider's n-th answer fails (cycled).
    static let failures = Gen.int(in: 0...9).array(of: 1...40)

    struct Run {
        var test: TestHost
        var ids: [WidgetID]
        var budgets: [Int]
    }

    private func run(steps: [(Int, Int, Int)], failures: [Int]) -> Run {
        var calls = 0
        var test = TestHost(provider: { params in
            defer { calls += 1 }
            switch failures[calls % failures.count] {
            case 0: return .fail(.crashed("exit status 1"))
            case 1: return .fail(.timedOut(elapsed: 5))
            case 2: return .timeline(TimelinePayload(entries: [], policy: .never))
            case 3, 4: return .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .minutes(20))))
            case 5: return .timeline(TimelinePayload(entries: [entry(at: params.now), entry(at: params.now + .hours(1))], policy: .atEnd))
            default: return .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .never))
            }
        })
        let budgets = [3, 7, 40]
        let ids = [test.add(pinned: budgets[0]), test.add("WeatherWidget", pinned: budgets[1]), test.add("BirthdayHomeWidget", .systemLarge, pinned: budgets[2])]
        for (gap, action, index) in steps {
            test.advance(by: .minutes(Double(gap)))
            let id = ids[index]
            switch action {
            case 0...4: test.handle(.reloadRequested(ReloadRequest(.widget(id))))
            case 5: test.handle(.reloadRequested(ReloadRequest(.widget(id), origin: .foreground)))
            case 6: test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil))))
            case 7: test.handle(.viewRecorded(id))
            case 8: test.handle(.significantTimeChange)
            default: test.handle(.reloadRequested(ReloadRequest(.allOfApp("com.birthdayreminders"), origin: .appIntent)))
            }
        }
        return Run(test: test, ids: ids, budgets: budgets)
    }

    @Test("In every 24-hour window the budgeted starts never exceed B")
    func budgetNeverExceeded() async {
        await propertyCheck(count: 60, input: Self.steps, Self.failures) { steps, failures in
            let run = run(steps: steps, failures: failures)
            for (id, budget) in zip(run.ids, run.budgets) {
                let starts = run.test.started(id, budgeted: true).map(\.at)
                for start in starts {
                    let inWindow = starts.filter { $0 > start - .days(1) && $0 <= start }.count
                    #expect(inWindow <= budget, "widget \(id) had \(inWindow) budgeted starts in the 24 h before \(start)")
                }
            }
        }
    }

    @Test("Every request ends started, or merged into a reload that starts")
    func everyRequestIsServed() async {
        await propertyCheck(count: 60, input: Self.steps, Self.failures) { steps, failures in
            var run = run(steps: steps, failures: failures)
            let requests = run.test.notices.filter { $0.type == .reloadDeferred || $0.type == .reloadCoalesced }.count
            // Quiet for two days: whatever was deferred must have run by then.
            run.test.advance(by: .days(2))
            for id in run.ids {
                let status = run.test.status(id)
                #expect(!status.reloadRunning)
                #expect(status.nextReload.deferredBy == nil || status.nextReload.cause == "policy" || status.nextReload.cause == "retry",
                    "widget \(id) still has a requested reload waiting: \(status.nextReload) after \(requests) deferrals")
                if status.nextReload.cause == "requested" { Issue.record("requested reload never ran for \(id)") }
            }
        }
    }

    @Test("Every persist names each widget once, in id order, and none it also removes")
    func persistScopes() async {
        await propertyCheck(count: 30, input: Self.steps, Self.failures) { steps, failures in
            var run = run(steps: steps, failures: failures)
            // Ten more widgets (w4…w13: w10 sorts after w9) reloaded at once, then one removed.
            for _ in 0..<10 { run.test.add() }
            run.test.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil))))
            run.test.handle(.widgetRemoved("w12"))
            let scopes = run.test.effects.compactMap { if case .persist(let scope) = $0 { scope } else { nil } }
            #expect(scopes.contains { $0.changed.count >= 11 })
            #expect(scopes.contains { $0.removed == ["w12"] })
            for scope in scopes {
                #expect(scope.changed == Array(Set(scope.changed)).sorted(), "\(scope.changed)")
                #expect(Set(scope.changed).isDisjoint(with: scope.removed))
            }
        }
    }

    @Test("No reload starts earlier than its gates allow")
    func gatesHold() async {
        await propertyCheck(count: 60, input: Self.steps, Self.failures) { steps, failures in
            let run = run(steps: steps, failures: failures)
            let backoff = BackoffRules()
            for id in run.ids {
                var lastStart: Date?  // the last budgeted start
                var consecutiveFailures = 0
                var backoffUntil: Date?
                for notice in run.test.notices where notice.widgetId == id.rawValue {
                    switch notice {
                    case .reloadStarted(_, _, let charge, _):
                        if let backoffUntil {
                            #expect(notice.at >= backoffUntil, "\(id) started at \(notice.at) during backoff until \(backoffUntil)")
                        }
                        if charge == .budgeted {
                            if let lastStart {
                                #expect(notice.at >= lastStart + .minutes(5), "\(id) budgeted start \(notice.at) within 5 min of \(lastStart)")
                            }
                            lastStart = notice.at
                        }
                    case .reloadFinished(_, _, _, let result, _, _, _):
                        if result == .success {
                            consecutiveFailures = 0
                            backoffUntil = nil
                        } else {
                            consecutiveFailures += 1
                            backoffUntil = notice.at + min(backoff.initial * pow(2, Double(consecutiveFailures - 1)), backoff.maximum)
                        }
                    default: break
                    }
                }
            }
        }
    }
}

@Suite("Deadlines")
struct DeadlineTests {
    @Test("nextDeadline is the earliest of every widget's and extension's deadline, and nil when idle")
    func nextDeadline() {
        var test = TestHost(provider: { params in
            .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .hours(Double(params.widgetId.dropFirst())!))))
        })
        for _ in 0..<3 { test.add() }
        #expect(test.host.nextDeadline == t0 + 30)  // idle stop of the extension
        test.advance(to: t0 + 31)
        #expect(test.host.nextDeadline == t0 + .hours(1))
        test.handle(.widgetRemoved("w1"))
        #expect(test.host.nextDeadline == t0 + .hours(2))
    }

    @Test("Deadlines at one instant are handled widgets first (w2 before w10), then extensions, then activities")
    func ownerOrder() {
        let owners: [DeadlineOwner] = [
            .activity("a1"), .extension("com.b"), .widget("w10"), .extension("com.a"), .widget("w2"), .activity("a0"),
        ]
        #expect(owners.sorted() == [.widget("w2"), .widget("w10"), .extension("com.a"), .extension("com.b"), .activity("a0"), .activity("a1")])
        #expect(!(DeadlineOwner.widget("w2") < .widget("w2")))
        #expect(!(DeadlineOwner.activity("a0") < .widget("w1")))
    }

    @Test("Rescheduling the earliest deadline later or earlier moves nextDeadline with it")
    func rescheduledTop() {
        var test = TestHost(provider: { params in
            .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .hours(Double(params.widgetId.dropFirst())!))))
        })
        let ids = (0..<3).map { _ in test.add() }
        test.advance(to: t0 + 31)
        #expect(test.host.nextDeadline == t0 + .hours(1))
        // w1 held the earliest deadline; its reload moves it an hour on: the old one is gone.
        test.advance(to: t0 + .minutes(1))
        test.handle(.reloadRequested(ReloadRequest(.widget(ids[0]))))
        #expect(test.host.nextDeadline == t0 + .minutes(1) + 30)  // the idle extension's stop
        test.advance(to: t0 + .minutes(2))
        #expect(test.host.nextDeadline == t0 + .minutes(61))
        // w3 (not the earliest) moves before everyone else.
        test.provider = { params in .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .minutes(5)))) }
        test.handle(.reloadRequested(ReloadRequest(.widget(ids[2]))))
        test.advance(to: t0 + .minutes(3))
        #expect(test.host.nextDeadline == t0 + .minutes(7))
        test.advance(to: t0 + .minutes(7))
        #expect(test.started(ids[2]).map(\.at) == [t0, t0 + .minutes(2), t0 + .minutes(7)])
        #expect(test.started(ids[0]).map(\.at) == [t0, t0 + .minutes(1)])
    }

    @Test("A thousand widgets: every policy reload happens at its own due time")
    func manyWidgets() {
        var test = TestHost(provider: { params in
            let minutes = Double(Int(params.widgetId.dropFirst())! % 50 + 10)
            return .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .after(params.now + .minutes(minutes))))
        })
        for _ in 0..<1000 { test.add("WeatherWidget") }
        test.advance(to: t0 + .hours(2))
        for index in [1, 7, 49, 500, 1000] {
            let id = WidgetID("w\(index)")
            let minutes = Double(index % 50 + 10)
            let expected = Int((120 / minutes).rounded(.down)) + 1
            #expect(test.started(id).count == expected)
        }
    }
}
