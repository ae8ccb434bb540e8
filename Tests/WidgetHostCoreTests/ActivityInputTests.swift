import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// Every bad input to the activity methods and to a push, each refused with its reason and a
/// message that names the field and says what to send.
@Suite("Bad activity requests, updates, ends and pushes are refused naming what was wrong")
struct ActivityInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var command: ActivityCommand
        var reason: String
        var message: String
        var testDescription: String { label }
    }

    static let token = PushTokens.activity(id: "a1", app: pizzaApp, startedAt: t0)
    static let startToken = PushTokens.pushToStart(app: pizzaApp, attributesType: "PizzaDeliveryAttributes")

    static func request(attributes: JSONValue = pizzaAttributes, state: JSONValue = pizzaState(), app: String = pizzaApp, type: String = "PizzaDeliveryAttributes") -> ActivityCommand {
        .request(ActivityRequestParams(app: app, attributesType: type, attributes: attributes, content: ActivityContentPayload(state: state)))
    }

    static func push(_ payload: JSONValue, priority: Int = 10, token: String = token) -> ActivityCommand {
        .push(ActivityPushParams(token: token, priority: priority, payload: payload))
    }

    static let cases: [Case] = [
        Case(label: "request: attributes a string", command: request(attributes: "Pepperoni"), reason: "invalid",
             message: "attributes is a string (\"Pepperoni\"), not an object; send the ActivityAttributes value as a JSON object"),
        Case(label: "request: attributes an array", command: request(attributes: [1, 2]), reason: "invalid",
             message: "attributes is an array, not an object"),
        Case(label: "request: attributes null", command: request(attributes: .null), reason: "invalid",
             message: "attributes is null, not an object"),
        Case(label: "request: content state a number", command: request(state: 42), reason: "invalid",
             message: "content.state is a number (42), not an object; send the ContentState as a JSON object"),
        Case(label: "request: content state a boolean", command: request(state: true), reason: "invalid",
             message: "content.state is a boolean (true), not an object"),
        Case(label: "request: no app", command: request(app: ""), reason: "invalid", message: "app is empty; send the app's bundle identifier"),
        Case(label: "request: no attributes type", command: request(type: ""), reason: "invalid",
             message: "attributesType is empty; send the ActivityAttributes type's name"),
        Case(label: "request: 4 KB + 1", command: request(state: state(totalBytes: 4097)), reason: "attributesTooLarge",
             message: "attributes and content state are 4097 bytes, over the 4096-byte limit"),
        Case(label: "update: content state a string",
             command: .update(ActivityUpdateParams(id: "a1", content: ActivityContentPayload(state: "late"))), reason: "invalid",
             message: "content.state is a string (\"late\"), not an object"),
        Case(label: "update: 4 KB + 1",
             command: .update(ActivityUpdateParams(id: "a1", content: ActivityContentPayload(state: state(totalBytes: 4097)))),
             reason: "attributesTooLarge", message: "are 4097 bytes, over the 4096-byte limit"),
        Case(label: "update: unknown id", command: .update(ActivityUpdateParams(id: "a9", content: ActivityContentPayload(state: pizzaState()))),
             reason: "unknownActivity", message: "no Live Activity with id \"a9\"; `widgethost activities` lists them"),
        Case(label: "update: another app's activity",
             command: .update(ActivityUpdateParams(id: "a1", app: "com.other", content: ActivityContentPayload(state: pizzaState()))),
             reason: "notOwner", message: "Live Activity a1 belongs to com.example.pizza, not com.other"),
        Case(label: "end: content state an array", command: .end(ActivityEndParams(id: "a1", content: ActivityContentPayload(state: []))),
             reason: "invalid", message: "content.state is an array, not an object"),
        Case(label: "end: unknown id", command: .end(ActivityEndParams(id: "nope")), reason: "unknownActivity",
             message: "no Live Activity with id \"nope\""),
        Case(label: "push: no token", command: push(apns(state: pizzaState()), token: ""), reason: "MissingDeviceToken",
             message: "the push names no token"),
        Case(label: "push: unknown token", command: push(apns(state: pizzaState()), token: String(repeating: "0", count: 64)),
             reason: "BadDeviceToken", message: "no Live Activity or push-to-start token 0000"),
        Case(label: "push: priority 7", command: push(apns(state: pizzaState()), priority: 7), reason: "BadPriority",
             message: "apns-priority is 7; a Live Activity push has priority 5 or 10"),
        Case(label: "push: over 4 KB", command: push(["aps": ["event": "update", "content-state": state(totalBytes: 5000)]]),
             reason: "PayloadTooLarge", message: "APNs takes at most 4096 for a Live Activity"),
        Case(label: "push: empty body", command: push(.object([:])), reason: "PayloadEmpty", message: "the payload is empty or not a JSON object"),
        Case(label: "push: body an array", command: push([1]), reason: "PayloadEmpty", message: "the payload is empty or not a JSON object"),
        Case(label: "push: no aps", command: push(["notaps": 1]), reason: "BadPayload", message: "the payload has no \"aps\" object"),
        Case(label: "push: no event", command: push(["aps": ["content-state": pizzaState()]]), reason: "BadPayload",
             message: "aps.event is missing; use \"update\", \"end\" or \"start\""),
        Case(label: "push: unknown event", command: push(apns("explode", state: pizzaState())), reason: "BadPayload",
             message: "aps.event is \"explode\"; use \"update\", \"end\" or \"start\""),
        Case(label: "push: event a number", command: push(["aps": ["event": 3, "content-state": pizzaState()]]), reason: "BadPayload",
             message: "aps.event is a number (3), not a string"),
        Case(label: "push: content-state a string", command: push(["aps": ["event": "update", "content-state": "text"]]),
             reason: "BadPayload", message: "aps.content-state is a string (\"text\"), not an object"),
        Case(label: "push: update without content-state", command: push(apns("update")), reason: "MissingContentState",
             message: "an update push needs aps.content-state (the device would drop it)"),
        Case(label: "push: stale-date a string", command: push(["aps": ["event": "update", "content-state": pizzaState(), "stale-date": "soon"]]),
             reason: "BadPayload", message: "aps.stale-date is not a number of seconds since 1970"),
        Case(label: "push: timestamp a string", command: push(["aps": ["event": "update", "content-state": pizzaState(), "timestamp": "now"]]),
             reason: "BadPayload", message: "aps.timestamp is not a number of seconds since 1970"),
        Case(label: "push: dismissal-date a string", command: push(["aps": ["event": "end", "dismissal-date": "later"]]),
             reason: "BadPayload", message: "aps.dismissal-date is not a number of seconds since 1970"),
        Case(label: "push: relevance-score a string", command: push(["aps": ["event": "update", "content-state": pizzaState(), "relevance-score": "high"]]),
             reason: "BadPayload", message: "aps.relevance-score is not a number"),
        Case(label: "push: alert without body", command: push(["aps": ["event": "update", "content-state": pizzaState(), "alert": ["title": "Hi"]]]),
             reason: "BadPayload", message: "aps.alert needs \"title\" and \"body\" strings"),
        Case(label: "push: start to an activity token",
             command: push(apns("start", state: pizzaState(), attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes)),
             reason: "BadPayload", message: "a start push goes to a push-to-start token, not to activity a1's token"),
        Case(label: "push-to-start: update event", command: push(apns(state: pizzaState()), token: startToken), reason: "BadPayload",
             message: "this is the push-to-start token of com.example.pizza's PizzaDeliveryAttributes; send event \"start\" to it"),
        Case(label: "push-to-start: no attributes-type", command: push(apns("start", state: pizzaState(), attributes: pizzaAttributes), token: startToken),
             reason: "BadPayload", message: "a start push needs aps.attributes-type"),
        Case(label: "push-to-start: no attributes",
             command: push(apns("start", state: pizzaState(), attributesType: "PizzaDeliveryAttributes"), token: startToken),
             reason: "BadPayload", message: "a start push needs aps.attributes, the ActivityAttributes as JSON"),
        Case(label: "push-to-start: attributes a string",
             command: push(apns("start", state: pizzaState(), attributesType: "PizzaDeliveryAttributes", attributes: "Pepperoni"), token: startToken),
             reason: "BadPayload", message: "aps.attributes is a string (\"Pepperoni\"), not an object"),
        Case(label: "push-to-start: content-state an array",
             command: push(apns("start", state: [], attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes), token: startToken),
             reason: "BadPayload", message: "aps.content-state is an array, not an object"),
        Case(label: "push-to-start: attributes and state over 4 KB (the whole body counts)",
             command: push(apns("start", state: state(totalBytes: 4097), attributesType: "PizzaDeliveryAttributes", attributes: pizzaAttributes), token: startToken),
             reason: "PayloadTooLarge", message: "APNs takes at most 4096 for a Live Activity"),
        Case(label: "widget push: no token", command: .widgetPush(WidgetPushParams(token: "")), reason: "MissingDeviceToken",
             message: "the widget push names no token"),
        Case(label: "widget push: body over 4 KB",
             command: .widgetPush(WidgetPushParams(token: "abc", payload: ["aps": ["content-changed": true]], payloadBytes: 4097)),
             reason: "PayloadTooLarge", message: "the payload is 4097 bytes; APNs takes at most 4096 for a WidgetKit push"),
        Case(label: "widget push: body an array", command: .widgetPush(WidgetPushParams(token: "abc", payload: [1])),
             reason: "PayloadEmpty", message: "the payload is empty or not a JSON object"),
        Case(label: "widget push: no aps", command: .widgetPush(WidgetPushParams(token: "abc", payload: ["content-changed": true])),
             reason: "BadPayload", message: "the payload has no \"aps\" object"),
        Case(label: "widget push: content-changed false",
             command: .widgetPush(WidgetPushParams(token: "abc", payload: ["aps": ["content-changed": false]])),
             reason: "BadPayload", message: "aps.content-changed is a boolean (false); a WidgetKit push carries \"content-changed\": true"),
        Case(label: "widget push: unknown token", command: .widgetPush(WidgetPushParams(token: "abc")), reason: "BadDeviceToken",
             message: "no widget push token abc; `widgethost push tokens` lists them"),
    ]

    @Test("Refused with the reason and a message naming the field", arguments: cases)
    func refused(_ bad: Case) {
        var test = TestHost(activityRules: { _ in })
        #expect(test.startPizza().pushToken == Self.token)
        let before = test.info("a1")
        let reply = test.activity(bad.command)
        guard case .refused(let refusal) = reply else {
            Issue.record("\(bad.label) was not refused: \(reply)")
            return
        }
        #expect(refusal.reason == bad.reason)
        #expect(refusal.message.contains(bad.message), "\(refusal.message)")
        // Announced as a refusal with the same words, and nothing changed or was charged.
        let notice = test.activityNotices(.refused).last
        #expect(notice?.reason == bad.reason)
        #expect(notice?.detail == refusal.message)
        #expect(test.info("a1").content == before.content)
        #expect(test.info("a1").pushBudget.used == 0)
        #expect(test.host.activities.all.count == 1)
    }

    @Test("An update, an end, or a push after the end is refused with when it ended")
    func afterEnd() {
        var test = TestHost(activityRules: { _ in })
        let activity = test.startPizza()
        test.advance(to: t0 + .minutes(30))
        _ = test.activity(.end(ActivityEndParams(id: activity.id)))
        let content = ActivityContentPayload(state: pizzaState("late"))
        let update = test.activity(.update(ActivityUpdateParams(id: activity.id, content: content)))
        let again = test.activity(.end(ActivityEndParams(id: activity.id)))
        for reply in [update, again] {
            guard case .refused(let refusal) = reply else {
                Issue.record("not refused: \(reply)")
                continue
            }
            #expect(refusal.reason == "activityEnded")
            #expect(refusal.message == "Live Activity a1 is ended (ended at 2026-02-15T00:30:00Z); an ended activity takes no updates, start a new one")
        }
        guard case .refused(let pushed) = test.push(activity.pushToken!) else {
            Issue.record("a push after the end was not refused")
            return
        }
        #expect(pushed.reason == "Unregistered")
        #expect(pushed.message == "Live Activity a1 is ended (ended at 2026-02-15T00:30:00Z); its push token is no longer valid")
        #expect(test.info(activity.id).content.state == pizzaState())
    }

    @Test("A staleDate already past starts the activity stale, and says so")
    func staleDateInThePast() {
        var test = TestHost(activityRules: { _ in })
        test.advance(to: t0 + .hours(1))
        let activity = test.startPizza(staleDate: t0)
        #expect(activity.state == .stale)
        #expect(
            test.activityNotices(.stale).last?.detail
                == "its content's staleDate 2026-02-15T00:00:00Z has passed; it shows as out of date until the next update")
        let push = test.push(activity.pushToken!, apns(state: pizzaState(), staleDate: t0 + .minutes(30), timestamp: t0 + .hours(1)))
        #expect(push.pushResult?.outcome == .delivered)
        #expect(test.info(activity.id).state == .stale)
    }

    @Test("A dismissal .after beyond max_lock_screen is capped, one before the end is the end, and both say so")
    func dismissalAfterBounds() {
        var test = TestHost(activityRules: { _ in })
        let far = test.startPizza()
        let near = test.startPizza()
        test.advance(to: t0 + .hours(1))
        _ = test.activity(.end(ActivityEndParams(id: far.id, dismissalPolicy: .after(t0 + .hours(6)))))
        #expect(test.info(far.id).dismissAt == t0 + .hours(5))
        #expect(
            test.activityNotices(.ended).last?.detail
                == "ended by the app; dismissal policy .after(2026-02-15T06:00:00Z), capped at 4h after the end (activities.max_lock_screen): on the Lock Screen until 2026-02-15T05:00:00Z")
        _ = test.activity(.end(ActivityEndParams(id: near.id, dismissalPolicy: .after(t0))))
        #expect(test.info(near.id).state == .dismissed)
        #expect(
            test.activityNotices(.ended).last?.detail
                == "ended by the app; dismissal policy .after(2026-02-15T00:00:00Z), no sooner than the end: on the Lock Screen until 2026-02-15T01:00:00Z")
        // An end push's dismissal-date beyond the cap is capped the same way.
        let third = test.startPizza()
        _ = test.push(third.pushToken!, apns("end", dismissalDate: t0 + .hours(9), timestamp: t0 + .hours(1)))
        #expect(test.info(third.id).dismissAt == t0 + .hours(5))
    }
}
