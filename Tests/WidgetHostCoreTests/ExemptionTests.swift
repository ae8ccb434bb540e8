import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Exempt reloads")
struct ExemptionTests {
    @Test("Adding a widget gives it one exempt reload (placeholder first)")
    func added() {
        var test = TestHost()
        let id = test.add(pinned: 1)
        #expect(test.started(id).count == 1)
        #expect(test.started(id)[0].charge == .exempt(.added))
        #expect(test.status(id).budget.used == 0)
        let methods = test.effects.compactMap { if case .send(let request) = $0 { request.call.method } else { nil } }
        #expect(methods == [.placeholder, .timeline])
    }

    @Test("Foreground, user interaction and app intents are exempt and ignore the minimum interval",
        arguments: [ReloadOrigin.foreground, .userInteraction, .appIntent])
    func exemptOrigins(origin: ReloadOrigin) throws {
        var test = TestHost()
        let id = test.add(pinned: 1)
        for second in [10.0, 20.0, 30.0] {
            test.advance(to: t0 + second)
            let outcome = test.reload(origin: origin)
            #expect(outcome.outcome == .started)
            #expect(!outcome.budgeted)
        }
        #expect(test.started(id, budgeted: true).isEmpty)
        #expect(test.started(id).last?.charge == .exempt(try #require(Exemption(rawValue: origin.rawValue))))
    }

    @Test("A plain restart reloads nothing; a new boot id gives every instance one exempt reload")
    func restartVersusReboot() {
        var test = TestHost()
        let a = test.add()
        let b = test.add("WeatherWidget")
        test.advance(by: .hours(1))
        let records = test.host.allRecords
        let hostRecord = test.host.host

        for (bootID, expectedStarts) in [("boot-1", 0), ("boot-2", 1)] {
            var restarted = TestHost()
            restarted.host = WidgetHost(restoring: hostRecord, widgets: records)
            restarted.now = test.now
            restarted.handle(.hostStarted(bootID: bootID))
            restarted.handle(.catalogChanged([birthdayExtension, weatherExtension]))
            restarted.advance(by: .hours(1))
            for id in [a, b] {
                #expect(restarted.started(id).count == expectedStarts)
                #expect(restarted.started(id).allSatisfy { $0.charge == .exempt(.reboot) })
            }
        }
    }

    @Test("A significant time change gives every instance an exempt reload")
    func significantTimeChange() {
        var test = TestHost()
        let id = test.add(pinned: 1)
        test.advance(by: .minutes(1))
        test.handle(.significantTimeChange)
        #expect(test.started(id).last?.charge == .exempt(.significantTimeChange))
        #expect(test.status(id).budget.used == 0)
    }
}

@Suite("Coalescing")
struct CoalescingTests {
    @Test("A request while one is pending merges into it")
    func mergesIntoPending() {
        var test = TestHost()
        let id = test.add()
        test.advance(by: .minutes(1))
        #expect(test.reload().outcome == .started)
        test.advance(by: .minutes(1))
        let first = test.reload()
        #expect(first.outcome == .deferred && first.reason == .minInterval && first.until == t0 + .minutes(6))
        test.advance(by: .minutes(1))
        let second = test.reload()
        #expect(second.outcome == .coalesced && second.until == t0 + .minutes(6))
        test.advance(to: t0 + .minutes(6))
        #expect(test.started(id).count == 3)
        #expect(test.started(id).last?.requestedAt == t0 + .minutes(2))
    }

    @Test("An exempt request makes a pending reload exempt, and it starts at once")
    func exemptMakesPendingExempt() {
        var test = TestHost()
        let id = test.add()
        test.advance(by: .minutes(1))
        #expect(test.reload().outcome == .started)
        test.advance(by: .minutes(1))
        #expect(test.reload().outcome == .deferred)
        let foreground = test.reload(origin: .foreground)
        #expect(foreground.outcome == .started)
        #expect(test.started(id).count == 3)
        #expect(test.started(id).last?.charge == .exempt(.foreground))
        #expect(test.status(id).budget.used == 1)
    }

    @Test("A request while a reload is running queues exactly one more after it")
    func oneMoreAfterRunning() {
        var test = TestHost(provider: { _ in .hold })
        let id = test.add()
        test.advance(by: .seconds(1))
        let during = test.reload(origin: .foreground)
        #expect(during.outcome == .deferred && during.reason == .reloadInProgress)
        #expect(test.reload(origin: .foreground).outcome == .coalesced)
        #expect(test.started(id).count == 1)

        guard let request = test.held.last else { Issue.record("no request held"); return }
        test.handle(.extensionReplied(request.id, .timeline(TimelinePayload(entries: [entry(at: test.now)], policy: .never), byteCount: 100), footprintBytes: nil))
        #expect(test.started(id).count == 2)
        #expect(test.status(id).reloadRunning)
    }
}

@Suite("Order of gates")
struct GateTests {
    @Test("A budgeted reload inside the minimum interval is deferred until the interval ends", arguments: [5.0, 20.0])
    func minimumInterval(minutes: Double) {
        var test = TestHost(configuration: config { $0.policy.minReloadInterval = .minutes(minutes) })
        let id = test.add()
        test.advance(by: .minutes(1))
        // The exempt reload of adding the widget does not start the interval.
        #expect(test.reload().outcome == .started)
        test.advance(by: .minutes(1))
        let outcome = test.reload()
        #expect(outcome.reason == .minInterval)
        #expect(outcome.until == t0 + .minutes(1 + minutes))
        test.advance(to: t0 + .minutes(1 + minutes))
        #expect(test.started(id, budgeted: true).map(\.at) == [t0 + .minutes(1), t0 + .minutes(1 + minutes)])
    }

    @Test("Backoff, then minimum interval, then budget: the latest gate wins and is named")
    func latestGateWins() {
        let rules = HostConfiguration()
        var backoff = Backoff()
        backoff.recordFailure(at: t0, rules: rules.backoff)  // until t0 + 1m
        let decide = { (backoff: Backoff, ledger: [Date], limit: Int) in
            Gates.decide(budgeted: true, backoff: backoff, ledger: ledger, budgetLimit: limit, rules: rules, at: t0)
        }
        #expect(decide(backoff, [], 1).reason == .backoff)
        #expect(decide(backoff, [t0], 5).reason == .minInterval)
        #expect(decide(backoff, [t0], 5).earliest == t0 + .minutes(5))
        #expect(decide(backoff, [t0 - .hours(1), t0], 2).reason == .budgetExhausted)
        #expect(decide(backoff, [t0 - .hours(1), t0], 2).earliest == t0 - .hours(1) + .days(1))
        #expect(decide(Backoff(), [], 1).reason == nil)
        // Exempt reloads pass the interval and the budget, not the backoff.
        let exempt = Gates.decide(budgeted: false, backoff: backoff, ledger: [t0], budgetLimit: 1, rules: rules, at: t0)
        #expect(exempt.reason == .backoff && exempt.earliest == t0 + .minutes(1))
        // On a tie the earlier gate in the order is named.
        #expect(decide(backoff, [t0 - .minutes(4)], 5).reason == .backoff)
    }
}

@Suite("Failure backoff")
struct BackoffTests {
    @Test("Backoff is initial · 2^(n−1), capped, reset by a success",
        arguments: [(60.0, 3600.0), (10.0, 40.0)])
    func schedule(initial: Double, maximum: Double) {
        var rules = BackoffRules()
        rules.initial = initial
        rules.maximum = maximum
        var backoff = Backoff()
        var waits: [TimeInterval] = []
        for _ in 0..<8 {
            backoff.recordFailure(at: t0, rules: rules)
            waits.append(backoff.until!.timeIntervalSince(t0))
        }
        let expected = (0..<8).map { min(initial * pow(2, Double($0)), maximum) }
        #expect(waits == expected)
        backoff.recordSuccess()
        #expect(backoff.until == nil && backoff.consecutiveFailures == 0)
    }

    @Test("A failing widget retries after its backoff, and explicit requests are deferred with reason backoff")
    func retriesAfterBackoff() {
        var failing = true
        var test = TestHost(provider: { params in
            failing ? .fail(.crashed("exit status 3")) : .timeline(TimelinePayload(entries: [entry(at: params.now)], policy: .never))
        })
        let id = test.add()
        #expect(test.status(id).lastOutcome?.result == .crashed)
        #expect(test.status(id).backoff.until == t0 + .minutes(1))
        #expect(test.status(id).nextReload.deferredBy == .backoff)
        #expect(test.status(id).nextReload.at == t0 + .minutes(1))
        let during = test.reload(origin: .foreground)
        #expect(during.outcome == .coalesced && during.reason == .backoff && during.until == t0 + .minutes(1))
        test.advance(to: t0 + .minutes(1))
        #expect(test.status(id).backoff.until == t0 + .minutes(3))  // second failure: 2 minutes
        failing = false
        test.advance(to: t0 + .minutes(3) - 1)
        #expect(test.status(id).lastOutcome?.result == .crashed)
        test.advance(to: t0 + .minutes(3))
        #expect(test.status(id).lastOutcome?.result == .success)
        #expect(test.status(id).backoff.consecutiveFailures == 0)
        #expect(test.status(id).currentEntry.source == .timeline)
    }
}
