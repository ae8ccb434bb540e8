import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

/// The pizza extension, declaring an `ActivityConfiguration` for the pizza activities.
private let drawingPizzaExtension = ExtensionDescriptor(
    id: "com.example.pizza.widget", widgets: [], activities: ["PizzaDeliveryAttributes"])

/// A render result whose every presentation is one text: `label`.
private func renderResult(_ label: String, regions: [String] = ActivityRenderResult.regionPositions) -> JSONValue {
    let view = ViewArchive(family: nil, root: ViewNode(.text([ArchiveTextRun(.string(label))])))
    let result = ActivityRenderResult(
        lockScreen: view, compactLeading: view, compactTrailing: view, minimal: view,
        expanded: regions.map { .init(position: $0, view: view) })
    return try! JSONValue(encoding: result)
}

private func label(_ views: ActivityViews?) -> String? {
    guard case .text(let runs)? = views?.result.lockScreen.root.content, case .string(let text)? = runs.first?.content
    else { return nil }
    return text
}

extension TestHost {
    init(drawing extensions: [ExtensionDescriptor]) {
        self.init(extensions: [birthdayExtension] + extensions)
    }

    /// The `activity/render` requests sent and not yet answered.
    var renders: [(request: ExtensionRequest, params: ActivityRenderParams)] {
        held.compactMap { request in
            if case .activityRender(let params) = request.call { (request, params) } else { nil }
        }
    }

    /// Answers the oldest held render with `reply`.
    mutating func answerRender(_ reply: JSONValue, byteCount: Int = 500) {
        guard let index = held.firstIndex(where: { if case .activityRender = $0.call { true } else { false } }) else {
            Issue.record("no activity/render request is waiting")
            return
        }
        let request = held.remove(at: index)
        handle(.extensionReplied(request.id, .activityViews(reply, byteCount: byteCount), footprintBytes: nil))
    }

    mutating func failRender(_ failure: ExtensionFailure) {
        guard let index = held.firstIndex(where: { if case .activityRender = $0.call { true } else { false } }) else {
            Issue.record("no activity/render request is waiting")
            return
        }
        handle(.extensionFailed(held.remove(at: index).id, failure))
    }

    func views(_ id: String) -> ActivityViews? {
        try? host.activityDetail(id, at: now).get().views
    }
}

@Suite("Live Activity views: drawn by the extension at each change, checked, kept per presentation")
struct ActivityViewsTests {
    @Test("A started activity is drawn by its app's extension: attributes, state, not stale, the device's environment")
    func drawnAtStart() throws {
        var test = TestHost(drawing: [drawingPizzaExtension])
        let activity = test.startPizza()
        let (request, params) = try #require(test.renders.first)
        #expect(request.extension == "com.example.pizza.widget")
        #expect(request.widget == nil)
        #expect(params.activityId == activity.id)
        #expect(params.attributesType == "PizzaDeliveryAttributes")
        #expect(params.attributes == pizzaAttributes)
        #expect(params.state == pizzaState())
        #expect(params.isStale == false)
        #expect(test.views(activity.id) == nil)

        test.answerRender(renderResult("preparing"))
        let views = try #require(test.views(activity.id))
        #expect(label(views) == "preparing")
        #expect(views.renderedAt == t0)
        #expect(views.contentUpdatedAt == t0)
        #expect(views.result.expanded.map(\.position) == ["leading", "trailing", "center", "bottom"])
        #expect(test.activityNotices(.rendered).map(\.activityId) == [activity.id])
        // The views are part of the record that is persisted.
        #expect(test.host.activities[activity.id]?.views == views)
        // Drawing is no event of the activity's story.
        #expect(test.host.activities[activity.id]?.history.map(\.event) == ["requested"])
    }

    @Test("An update from the app, a push and the staleDate each draw it again with what changed")
    func drawnAtEachChange() throws {
        var test = TestHost(drawing: [drawingPizzaExtension])
        let activity = test.startPizza(staleDate: t0 + .minutes(30))
        test.answerRender(renderResult("preparing"))

        test.advance(by: .minutes(1))
        _ = test.activity(
            .update(ActivityUpdateParams(id: activity.id, content: ActivityContentPayload(state: pizzaState("onTheWay", driver: "John"), staleDate: t0 + .minutes(30)))))
        #expect(try #require(test.renders.first).params.state == pizzaState("onTheWay", driver: "John"))
        test.answerRender(renderResult("John"))
        #expect(label(test.views(activity.id)) == "John")
        #expect(test.views(activity.id)?.contentUpdatedAt == t0 + .minutes(1))

        test.advance(by: .minutes(1))
        _ = test.push(try #require(activity.pushToken), apns(state: pizzaState("delivered"), staleDate: t0 + .minutes(30)))
        #expect(try #require(test.renders.first).params.state == pizzaState("delivered"))
        test.answerRender(renderResult("delivered"))
        #expect(label(test.views(activity.id)) == "delivered")

        test.advance(to: t0 + .minutes(30))
        let stale = try #require(test.renders.first)
        #expect(stale.params.isStale == true)
        test.answerRender(renderResult("stale"))
        #expect(test.views(activity.id)?.isStale == true)
        #expect(test.activityNotices(.rendered).count == 4)
    }

    @Test("One render per activity at a time: a change while one runs asks once more after it, with the latest state")
    func oneAtATime() throws {
        var test = TestHost(drawing: [drawingPizzaExtension])
        let activity = test.startPizza()
        for driver in ["Ann", "Bob", "Cy"] {
            _ = test.activity(
                .update(ActivityUpdateParams(id: activity.id, content: ActivityContentPayload(state: pizzaState("onTheWay", driver: driver)))))
        }
        #expect(test.renders.count == 1)
        test.answerRender(renderResult("first"))
        #expect(test.renders.count == 1)
        #expect(try #require(test.renders.first).params.state == pizzaState("onTheWay", driver: "Cy"))
        test.answerRender(renderResult("Cy"))
        #expect(test.renders.isEmpty)
        #expect(label(test.views(activity.id)) == "Cy")
    }

    @Test(
        "A reply the host refuses keeps the previous views and says why in the story",
        arguments: [
            ("badRegion", renderResult("x", regions: ["top"]), 500),
            ("malformedReply", ["lockScreen": "nope"] as JSONValue, 500),
            ("replyTooLarge", renderResult("x"), 4 * 1024 * 1024 + 1),
        ])
    func refused(code: String, reply: JSONValue, byteCount: Int) throws {
        var test = TestHost(drawing: [drawingPizzaExtension])
        let activity = test.startPizza()
        test.answerRender(renderResult("good"))
        _ = test.activity(
            .update(ActivityUpdateParams(id: activity.id, content: ActivityContentPayload(state: pizzaState("onTheWay")))))
        test.answerRender(reply, byteCount: byteCount)
        #expect(label(test.views(activity.id)) == "good")
        let refusal = try #require(test.activityNotices(.refused).last)
        #expect(refusal.reason == code)
        #expect(refusal.source == .host)
        #expect(refusal.detail.contains("the previous ones stay"))
        #expect(test.host.activities[activity.id]?.history.last?.event == "refused")
    }

    @Test("A render that times out or crashes is a refusal with the reason; the activity itself is untouched")
    func failed() throws {
        var test = TestHost(drawing: [drawingPizzaExtension])
        let activity = test.startPizza()
        test.failRender(.crashed("exit status 1"))
        let refusal = try #require(test.activityNotices(.refused).last)
        #expect(refusal.reason == "renderFailed")
        #expect(refusal.detail.contains("the extension crashed: exit status 1"))
        #expect(refusal.detail.contains("it has none to show yet"))
        #expect(test.info(activity.id).state == .active)
        #expect(test.views(activity.id) == nil)
    }

    @Test("Ending draws the final content; dismissal drops the views; .immediate draws nothing")
    func endAndDismissal() throws {
        var test = TestHost(drawing: [drawingPizzaExtension])
        let activity = test.startPizza()
        test.answerRender(renderResult("preparing"))
        _ = test.activity(
            .end(ActivityEndParams(id: activity.id, content: ActivityContentPayload(state: pizzaState("delivered")))))
        #expect(try #require(test.renders.first).params.state == pizzaState("delivered"))
        test.answerRender(renderResult("delivered"))
        #expect(label(test.views(activity.id)) == "delivered")
        test.advance(by: .hours(4))
        #expect(test.info(activity.id).state == .dismissed)
        #expect(test.views(activity.id) == nil)

        let other = test.startPizza()
        test.answerRender(renderResult("other"))
        _ = test.activity(.end(ActivityEndParams(id: other.id, dismissalPolicy: .immediate)))
        #expect(test.renders.isEmpty)
        #expect(test.views(other.id) == nil)
    }

    @Test("An activity no extension of its app draws (no ActivityConfiguration for its type) is not asked for")
    func nobodyDraws() {
        var test = TestHost(drawing: [pizzaExtension])
        let activity = test.startPizza()
        #expect(test.renders.isEmpty)
        #expect(test.views(activity.id) == nil)
        var other = TestHost(drawing: [drawingPizzaExtension])
        _ = other.startPizza(app: "com.example.other")
        #expect(other.renders.isEmpty)
    }

    @Test("When the catalog changes, every activity still on the Lock Screen is drawn again")
    func catalogChange() throws {
        var test = TestHost(drawing: [pizzaExtension])
        let activity = test.startPizza()
        let gone = test.startPizza()
        _ = test.activity(.end(ActivityEndParams(id: gone.id, dismissalPolicy: .immediate)))
        #expect(test.renders.isEmpty)
        test.handle(.catalogChanged([birthdayExtension, drawingPizzaExtension]))
        #expect(test.renders.map(\.params.activityId) == [activity.id])
    }
}
