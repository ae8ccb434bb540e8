import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Live Activity pushes apply in the order of their timestamps (Apple: an older one is ignored)")
struct PushOrderingTests {
    @Test("A push whose timestamp is older than the last applied update's is ignored; an equal or newer one applies", arguments: [5, 10])
    func olderIgnored(priority: Int) {
        var test = TestHost(activityRules: { _ in })
        let token = test.startPizza().pushToken!
        test.advance(to: t0 + .minutes(10))
        let first = test.push(token, priority: priority, apns(state: pizzaState("onTheWay"), timestamp: t0 + .minutes(10)))
        #expect(first.pushResult?.outcome == .delivered)
        test.advance(to: t0 + .minutes(11))
        let late = test.push(token, priority: priority, apns(state: pizzaState("preparing"), timestamp: t0 + .minutes(9)))
        #expect(late.pushResult?.outcome == .ignored)
        #expect(late.pushResult?.reason == .outdatedTimestamp)
        #expect(late.pushResult?.activityId == "a1")
        // Dropped as a device drops it: the content shown is the newer one.
        #expect(test.info("a1").content.state == pizzaState("onTheWay"))
        #expect(test.info("a1").updatedAt == t0 + .minutes(10))
        let notice = test.activityNotices(.ignored).last
        #expect(notice?.reason == "outdatedTimestamp")
        #expect(notice?.detail.contains("its timestamp 2026-02-15T00:09:00Z is older than the last applied update's 2026-02-15T00:10:00Z") == true)
        #expect(notice?.detail.contains("the system ignores this update") == true)
        #expect(test.host.activityDetail("a1", at: test.now).map(\.history.last?.event) == .success("ignored"))
        // Equal is not older; newer applies and moves the mark.
        #expect(test.push(token, priority: priority, apns(state: pizzaState("equal"), timestamp: t0 + .minutes(10))).pushResult?.outcome == .delivered)
        #expect(test.push(token, priority: priority, apns(state: pizzaState("newer"), timestamp: t0 + .minutes(20))).pushResult?.outcome == .delivered)
        #expect(test.push(token, priority: priority, apns(state: pizzaState("old"), timestamp: t0 + .minutes(15))).pushResult?.outcome == .ignored)
        #expect(test.info("a1").content.state == pizzaState("newer"))
        #expect(test.host.activities["a1"]?.contentTimestamp == t0 + .minutes(20))
    }

    @Test("An end push older than the last applied update is ignored too: the activity stays active")
    func olderEndIgnored() {
        var test = TestHost(activityRules: { _ in })
        let token = test.startPizza().pushToken!
        _ = test.push(token, apns(state: pizzaState("onTheWay"), timestamp: t0 + .minutes(10)))
        let end = test.push(token, apns("end", state: pizzaState("delivered"), timestamp: t0 + .minutes(5)))
        #expect(end.pushResult?.outcome == .ignored)
        #expect(end.pushResult?.event == "end")
        #expect(test.info("a1").state == .active)
        #expect(test.push(token, apns("end", state: pizzaState("delivered"), timestamp: t0 + .minutes(10))).pushResult?.outcome == .delivered)
        #expect(test.info("a1").state == .ended)
    }

    @Test("An ignored priority-10 push still counts against the budget (APNs delivered it); priority 5 never counts")
    func ignoredBudget() {
        var test = TestHost(activityRules: { _ in })
        let token = test.startPizza().pushToken!
        _ = test.push(token, apns(state: pizzaState(), timestamp: t0 + .minutes(10)))
        let ignored = test.push(token, apns(state: pizzaState(), timestamp: t0)).pushResult
        #expect(ignored?.outcome == .ignored)
        #expect(ignored?.budgeted == true)
        #expect(ignored?.budget?.used == 2)
        #expect(test.activityNotices(.ignored).last?.detail.contains("still counted against the budget") == true)
        let free = test.push(token, priority: 5, apns(state: pizzaState(), timestamp: t0)).pushResult
        #expect(free?.outcome == .ignored)
        #expect(free?.budgeted == false)
        #expect(test.info("a1").pushBudget.used == 2)
    }

    @Test("Updates without a timestamp (local updates, pushes without aps.timestamp) apply and do not move the mark")
    func untimestamped() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        let token = activity.pushToken!
        #expect(test.push(token, apns(state: pizzaState("no-stamp"), timestamp: nil)).pushResult?.outcome == .delivered)
        #expect(test.host.activities["a1"]?.contentTimestamp == nil)
        _ = test.push(token, apns(state: pizzaState("stamped"), timestamp: t0 + .minutes(10)))
        _ = test.activity(.update(ActivityUpdateParams(id: activity.id, content: ActivityContentPayload(state: pizzaState("local")))))
        #expect(test.info("a1").content.state == pizzaState("local"))
        #expect(test.host.activities["a1"]?.contentTimestamp == t0 + .minutes(10))
        #expect(test.push(token, apns(state: pizzaState("untimed"), timestamp: nil)).pushResult?.outcome == .delivered)
        #expect(test.push(token, apns(state: pizzaState("old"), timestamp: t0 + .minutes(9))).pushResult?.outcome == .ignored)
    }

    @Test("A push-to-start's timestamp is the started activity's mark")
    func pushToStartStamps() {
        var test = TestHost(activityRules: { _ in })
        let token = PushTokens.pushToStart(app: pizzaApp, attributesType: "PizzaDeliveryAttributes")
        let start = apns(
            "start", state: pizzaState(), attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes,
            timestamp: t0 + .minutes(3))
        #expect(test.push(token, start).pushResult?.outcome == .delivered)
        let started = test.info("a1")
        #expect(test.host.activities["a1"]?.contentTimestamp == t0 + .minutes(3))
        #expect(test.push(started.pushToken!, apns(state: pizzaState("old"), timestamp: t0 + .minutes(2))).pushResult?.outcome == .ignored)
    }

    @Test("The mark is persisted with the activity and survives a restore")
    func persisted() throws {
        var test = TestHost(activityRules: { _ in })
        let token = test.startPizza().pushToken!
        let step = test.handle(
            .activity(.push(ActivityPushParams(token: token, priority: 5, payload: apns(state: pizzaState(), timestamp: t0 + .minutes(7))))))
        let scopes = step.effects.compactMap { if case .persist(let scope) = $0 { scope.activities.changed } else { nil } }
        #expect(scopes == [["a1"]])
        let record = try #require(test.host.activities["a1"])
        let decoded = try JSONDecoder().decode(ActivityRecord.self, from: JSONEncoder().encode(record))
        #expect(decoded.contentTimestamp == t0 + .minutes(7))
        // A record stored before the field existed decodes with no mark.
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        object["contentTimestamp"] = nil
        let old = try JSONDecoder().decode(ActivityRecord.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.contentTimestamp == nil)
    }
}
