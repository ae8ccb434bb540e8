import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Live Activity pushes and their budgets; WidgetKit pushes")
struct PushBudgetTests {
    @Test("Priority-10 pushes: the budget's worth are delivered in an hour, the next is throttled until the oldest ages out", arguments: [10, 4])
    func priorityTenBudget(budget: Int) {
        var test = TestHost(activityRules: { $0.pushBudget = budget })
        let token = test.startPizza().pushToken!
        for n in 0..<budget {
            test.advance(to: t0 + .minutes(Double(n)))
            #expect(test.push(token).pushResult?.outcome == .delivered)
        }
        test.advance(to: t0 + .minutes(Double(budget)))
        let throttled = test.push(token, apns(state: pizzaState("dropped"))).pushResult
        #expect(throttled?.outcome == .throttled)
        #expect(throttled?.reason == .pushBudgetExhausted)
        #expect(throttled?.until == t0 + .hours(1))
        #expect(throttled?.budget == PushBudgetUsage(used: budget, limit: budget, frequentUpdates: false))
        // Dropped, as a device drops it: the content is the last delivered one.
        #expect(test.info("a1").content.state == pizzaState("onTheWay"))
        #expect(test.activityNotices(.throttled).last?.until == t0 + .hours(1))
        test.advance(to: t0 + .hours(1))
        #expect(test.push(token).pushResult?.outcome == .delivered)
    }

    @Test("Priority-5 pushes are not budgeted: delivered while priority 10 is throttled")
    func priorityFiveFree() {
        var test = TestHost(activityRules: { _ in })
        let token = test.startPizza().pushToken!
        for _ in 0..<10 { _ = test.push(token) }
        #expect(test.push(token).pushResult?.outcome == .throttled)
        for n in 0..<50 {
            let result = test.push(token, priority: 5, apns(state: pizzaState("p5-\(n)"))).pushResult
            #expect(result?.outcome == .delivered)
            #expect(result?.budgeted == false)
        }
        #expect(test.info("a1").content.state == pizzaState("p5-49"))
        #expect(test.info("a1").pushBudget.used == 10)
    }

    @Test("The frequent-updates entitlement raises the priority-10 budget", arguments: [60, 30])
    func frequentUpdates(budget: Int) {
        var test = TestHost(activityRules: { $0.frequentPushBudget = budget }, frequentUpdates: true)
        let token = test.startPizza().pushToken!
        var delivered = 0
        for n in 0..<(budget + 5) {
            test.advance(to: t0 + .seconds(Double(n)))
            if test.push(token).pushResult?.outcome == .delivered { delivered += 1 }
        }
        #expect(delivered == budget)
        #expect(test.info("a1").pushBudget == PushBudgetUsage(used: budget, limit: budget, frequentUpdates: true))
        // Without the entitlement the same app gets the standard budget.
        var standard = TestHost(activityRules: { $0.frequentPushBudget = budget })
        #expect(standard.startPizza().pushBudget.limit == 10)
    }

    @Test("A push to an ended activity is refused with Unregistered and the time it ended")
    func pushToEnded() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        test.advance(to: t0 + .minutes(5))
        #expect(test.push(activity.pushToken!, apns("end", state: pizzaState("delivered"))).pushResult?.outcome == .delivered)
        #expect(test.info(activity.id).state == .ended)
        let reply = test.push(activity.pushToken!)
        #expect(reply.refusalReason == "Unregistered")
        #expect(test.activityNotices(.refused).last?.detail.contains("ended at 2026-02-15T00:05:00Z") == true)
    }

    @Test("An end push's dismissal-date is its dismissal policy")
    func endPushDismissal() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        _ = test.push(activity.pushToken!, apns("end", dismissalDate: t0 + .minutes(20)))
        #expect(test.info(activity.id).dismissAt == t0 + .minutes(20))
        #expect(test.info(activity.id).content.state == pizzaState())
    }

    @Test("Bad pushes get APNs' reasons: BadDeviceToken, BadPriority, PayloadTooLarge, PayloadEmpty, and the host's for what a device drops")
    func badPushes() {
        var test = TestHost(activityRules: { _ in })
        let token = test.startPizza().pushToken!
        #expect(test.push(String(repeating: "0", count: 64)).refusalReason == "BadDeviceToken")
        #expect(test.push(token, priority: 7).refusalReason == "BadPriority")
        #expect(test.push(token, ["aps": ["event": "update", "content-state": state(totalBytes: 5000)]]).refusalReason == "PayloadTooLarge")
        #expect(test.push(token, .object([:])).refusalReason == "PayloadEmpty")
        #expect(test.push(token, ["notaps": 1]).refusalReason == "BadPayload")
        #expect(test.push(token, apns("explode", state: pizzaState())).refusalReason == "BadPayload")
        #expect(test.push(token, apns("update")).refusalReason == "MissingContentState")
        #expect(test.push(token, ["aps": ["event": "update", "content-state": "text"]]).refusalReason == "BadPayload")
        // None of them was charged.
        #expect(test.info("a1").pushBudget.used == 0)
    }

    @Test("Push-to-start starts an activity with its own token and has its own budget", arguments: [5, 2])
    func pushToStart(budget: Int) {
        var test = TestHost(activityRules: { $0.pushToStartBudget = budget; $0.maxPerApp = 10 })
        let token = PushTokens.pushToStart(app: pizzaApp, attributesType: "PizzaDeliveryAttributes")
        let start = apns(
            "start", state: pizzaState(), alert: ("Order placed", "Preparing"), attributesType: "PizzaDeliveryAttributes",
            attributes: pizzaAttributes)
        for n in 0..<budget {
            let result = test.push(token, start).pushResult
            #expect(result?.outcome == .delivered)
            #expect(result?.activityId == "a\(n + 1)")
        }
        let throttled = test.push(token, start).pushResult
        #expect(throttled?.outcome == .throttled)
        #expect(throttled?.reason == .pushToStartBudgetExhausted)
        #expect(throttled?.until == t0 + .hours(1))
        // The started activity has its own update token and update budget.
        let started = test.info("a1")
        #expect(started.pushToken != nil && started.pushToken != token)
        #expect(started.lastAlert?.title == "Order placed")
        #expect(test.push(started.pushToken!).pushResult?.outcome == .delivered)
        // An update sent to a push-to-start token is refused.
        #expect(test.push(token).refusalReason == "BadPayload")
        #expect(test.host.pushTokens(app: pizzaApp).pushToStart.first?.token == token)
    }

    @Test("Push-to-start obeys the size limit and the activities-at-once limit")
    func pushToStartLimits() {
        var test = TestHost(activityRules: { $0.maxPerApp = 1 })
        let token = PushTokens.pushToStart(app: pizzaApp, attributesType: "PizzaDeliveryAttributes")
        _ = test.startPizza()
        let start = apns("start", state: pizzaState(), attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes)
        #expect(test.push(token, start).refusalReason == "targetMaximumExceeded")
    }

    @Test("A WidgetKit push reloads every instance of its kind, each reload budgeted against the widget's budget")
    func widgetPush() {
        var test = TestHost(activityRules: { _ in })
        let first = test.add(pinned: 2)
        let second = test.add(pinned: 2)
        let token = test.host.pushTokens(app: nil).widgets.first { $0.kind == "BirthdayHomeWidget" }!.token
        test.advance(by: .minutes(10))
        guard case .widgetPush(let result) = test.activity(.widgetPush(WidgetPushParams(token: token))) else {
            Issue.record("widget push refused")
            return
        }
        #expect(result.kind == "BirthdayHomeWidget")
        #expect(result.reload.outcomes.map(\.outcome) == [.started, .started])
        #expect(result.reload.outcomes.allSatisfy { $0.budgeted })
        #expect(test.status(first).budget.used == 1 && test.status(second).budget.used == 1)
        test.advance(by: .minutes(10))
        _ = test.activity(.widgetPush(WidgetPushParams(token: token)))
        test.advance(by: .minutes(10))
        guard case .widgetPush(let third) = test.activity(.widgetPush(WidgetPushParams(token: token))) else { return }
        #expect(third.reload.outcomes.first?.reason == .budgetExhausted)
        #expect(test.activity(.widgetPush(WidgetPushParams(token: "abc"))).refusalReason == "BadDeviceToken")
    }
}
