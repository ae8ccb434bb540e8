import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Live Activities: size, count, lifetime, dismissal, staleness")
struct ActivityTests {
    @Test("Attributes plus content state of exactly the limit start; one byte more is attributesTooLarge", arguments: [4096, 2048])
    func sizeLimit(limit: Int) {
        var test = TestHost(activityRules: { $0.maxPayloadBytes = limit })
        guard case .activity(let info) = test.request(state: state(totalBytes: limit)) else {
            Issue.record("a payload of exactly \(limit) bytes was refused")
            return
        }
        #expect(info.payloadBytes == limit)
        let over = test.request(state: state(totalBytes: limit + 1))
        #expect(over.refusalReason == "attributesTooLarge")
        #expect(test.activityNotices(.refused).last?.detail.contains("\(limit + 1) bytes") == true)
        // An update over the limit is refused too, and the content stays.
        let update = test.activity(
            .update(ActivityUpdateParams(id: info.id, content: ActivityContentPayload(state: state(totalBytes: limit + 1)))))
        #expect(update.refusalReason == "attributesTooLarge")
        #expect(test.info(info.id).payloadBytes == limit)
    }

    @Test("An app has at most activities.max_per_app ongoing activities; ending one makes room; other apps are apart", arguments: [3, 2])
    func activitiesAtOnce(limit: Int) {
        var test = TestHost(activityRules: { $0.maxPerApp = limit })
        let started = (0..<limit).map { _ in test.startPizza() }
        let refused = test.request(state: pizzaState())
        #expect(refused.refusalReason == "targetMaximumExceeded")
        #expect(test.activityNotices(.refused).last?.detail.contains(started.map(\.id).joined(separator: ", ")) == true)
        // Another app is counted apart.
        #expect(test.startPizza(app: "com.example.other").state == .active)
        _ = test.activity(.end(ActivityEndParams(id: started[0].id)))
        #expect(test.startPizza().state == .active)
    }

    @Test("The host ends an activity activities.max_active after it started, then keeps it on the Lock Screen for max_lock_screen", arguments: [8.0, 2.0])
    func eightHours(hours: Double) {
        var test = TestHost(activityRules: { $0.maxActive = .hours(hours) })
        let activity = test.startPizza()
        test.advance(to: t0 + .hours(hours) - 1)
        #expect(test.info(activity.id).state == .active)
        test.advance(to: t0 + .hours(hours))
        let ended = test.info(activity.id)
        #expect(ended.state == .ended)
        #expect(ended.endedAt == t0 + .hours(hours))
        #expect(ended.dismissAt == t0 + .hours(hours + 4))
        #expect(test.activityNotices(.ended).last?.source == .host)
        #expect(test.activityNotices(.ended).last?.detail.contains("activities.max_active") == true)
        test.advance(to: t0 + .hours(hours + 4) - 1)
        #expect(test.info(activity.id).state == .ended)
        test.advance(to: t0 + .hours(hours + 4))
        #expect(test.info(activity.id).state == .dismissed)
    }

    @Test(
        "Each dismissal policy: .default stays max_lock_screen, .immediate goes at once, .after(d) at d, capped, never before the end",
        arguments: [
            (ActivityDismissalPolicyPayload.default, 4.0 * 3600),
            (.immediate, 0),
            (.after(t0 + .hours(1) + .minutes(30)), 1800),
            (.after(t0 + .hours(10)), 4.0 * 3600),
            (.after(t0 - .hours(1)), 0),
        ])
    func dismissalPolicies(policy: ActivityDismissalPolicyPayload, stays: TimeInterval) {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        test.advance(to: t0 + .hours(1))
        _ = test.activity(.end(ActivityEndParams(id: activity.id, dismissalPolicy: policy)))
        let ended = test.info(activity.id)
        #expect(ended.dismissAt == t0 + .hours(1) + stays)
        #expect(ended.state == (stays == 0 ? .dismissed : .ended))
        if stays > 0 {
            test.advance(to: t0 + .hours(1) + stays - 1)
            #expect(test.info(activity.id).state == .ended)
            test.advance(to: t0 + .hours(1) + stays)
            #expect(test.info(activity.id).state == .dismissed)
        }
    }

    @Test("max_lock_screen caps .default and .after", arguments: [4.0, 1.0])
    func lockScreenCap(hours: Double) {
        var test = TestHost(activityRules: { $0.maxLockScreen = .hours(hours) })
        let activity = test.startPizza()
        _ = test.activity(.end(ActivityEndParams(id: activity.id, dismissalPolicy: .after(t0 + .hours(12)))))
        #expect(test.info(activity.id).dismissAt == t0 + .hours(hours))
        #expect(test.activityNotices(.ended).last?.detail.contains("capped") == true)
    }

    @Test("An activity turns stale at its staleDate, and an update with a later one makes it active again")
    func staleDate() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza(staleDate: t0 + .minutes(10))
        test.advance(to: t0 + .minutes(10) - 1)
        #expect(test.info(activity.id).state == .active)
        test.advance(to: t0 + .minutes(10))
        #expect(test.info(activity.id).state == .stale)
        #expect(test.activityNotices(.stale).count == 1)
        _ = test.activity(
            .update(
                ActivityUpdateParams(
                    id: activity.id, content: ActivityContentPayload(state: pizzaState("onTheWay"), staleDate: t0 + .hours(1)))))
        #expect(test.info(activity.id).state == .active)
        #expect(test.activityNotices(.updated).last?.detail.contains("no longer stale") == true)
        // A staleDate already past makes the update stale at once.
        _ = test.activity(
            .update(ActivityUpdateParams(id: activity.id, content: ActivityContentPayload(state: pizzaState(), staleDate: t0))))
        #expect(test.info(activity.id).state == .stale)
    }

    @Test("Updates and ends from the app are never budgeted")
    func localUpdatesFree() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        for minute in 1...100 {
            test.advance(to: t0 + .minutes(Double(minute) / 10))
            let reply = test.activity(
                .update(ActivityUpdateParams(id: activity.id, content: ActivityContentPayload(state: pizzaState("\(minute)")))))
            guard case .activity = reply else {
                Issue.record("local update \(minute) was refused: \(reply)")
                return
            }
        }
        #expect(test.info(activity.id).pushBudget.used == 0)
        #expect(test.info(activity.id).content.state == pizzaState("100"))
    }

    @Test("An update or end of an ended activity, an unknown id and another app's activity are refused with the reason")
    func refusals() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        let content = ActivityContentPayload(state: pizzaState())
        #expect(test.activity(.update(ActivityUpdateParams(id: activity.id, app: "com.evil", content: content))).refusalReason == "notOwner")
        #expect(test.activity(.update(ActivityUpdateParams(id: "a99", content: content))).refusalReason == "unknownActivity")
        _ = test.activity(.end(ActivityEndParams(id: activity.id)))
        #expect(test.activity(.update(ActivityUpdateParams(id: activity.id, content: content))).refusalReason == "activityEnded")
        #expect(test.activity(.end(ActivityEndParams(id: activity.id))).refusalReason == "activityEnded")
        #expect(test.host.activityDetail(activity.id, at: test.now).map(\.history.last?.event) == .success("refused"))
    }

    @Test("activities.enabled = false refuses every request with denied")
    func disabled() {
        var test = TestHost(activityRules: { $0.enabled = false })
        #expect(test.request(state: pizzaState()).refusalReason == "denied")
    }

    @Test("A restored host keeps its activities, their push ledgers and their deadlines")
    func restore() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        for minute in 0..<3 {
            test.advance(to: t0 + .minutes(Double(minute)))
            _ = test.push(activity.pushToken!)
        }
        let book = ActivityBook(host: test.host.activities.host, activities: test.host.activities.all)
        var restored = TestHost(activityRules: { _ in })
        restored.host = WidgetHost(configuration: .default, restoring: test.host.host, widgets: [], activities: book)
        restored.handle(.catalogChanged([birthdayExtension, pizzaExtension]))
        restored.now = t0 + .minutes(5)
        #expect(restored.info(activity.id).pushBudget.used == 3)
        #expect(restored.host.activities[activity.id]?.history == test.host.activities[activity.id]?.history)
        restored.advance(to: t0 + .hours(8))
        #expect(restored.info(activity.id).state == .ended)
        // The id counter survives too: the next activity is a2.
        #expect(restored.startPizza().id == "a2")
    }

    @Test("A dismissed activity's story is kept activities.keep_dismissed, then forgotten (and removed from the state)", arguments: [24.0, 2.0])
    func keepDismissed(hours: Double) {
        var test = TestHost(activityRules: { $0.keepDismissed = .hours(hours) })
        let activity = test.startPizza()
        _ = test.activity(.end(ActivityEndParams(id: activity.id, dismissalPolicy: .immediate)))
        test.advance(to: t0 + .hours(hours) - 1)
        #expect(test.host.activities[activity.id]?.state == .dismissed)
        test.advance(to: t0 + .hours(hours))
        #expect(test.host.activities[activity.id] == nil)
        let removed = test.effects.compactMap { if case .persist(let scope) = $0 { scope.activities.removed } else { nil } }
        #expect(removed.last == [activity.id])
    }

    @Test("Every change of an activity is persisted in the step that made it")
    func persistScope() {
        var test = TestHost(activityRules: { _ in })
        let step = test.handle(
            .activity(
                .request(
                    ActivityRequestParams(
                        app: pizzaApp, attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes,
                        content: ActivityContentPayload(state: pizzaState())))))
        let scopes = step.effects.compactMap { if case .persist(let scope) = $0 { scope } else { nil } }
        #expect(scopes.count == 1)
        #expect(scopes.first?.activities == ActivityPersistScope(changed: ["a1"], removed: [], host: true))
    }
}
