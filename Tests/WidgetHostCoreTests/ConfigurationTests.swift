import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Configurable widgets")
struct ConfigurationTests {
    @Test("Two instances of one configurable kind each receive their own values in timeline/get, defaults filled in")
    func ownConfiguration() throws {
        var test = TestHost.intents()
        let a = try #require(TestHost.added(test.addConfigured(["widget": "cfg-1", "label": "A"])))
        let b = try #require(TestHost.added(test.addConfigured(["widget": "cfg-2", "label": "B", "style": "bold"])))
        let first = try #require(test.timelineRequests(WidgetID(a.id)).last?.configuration)
        let second = try #require(test.timelineRequests(WidgetID(b.id)).last?.configuration)
        #expect(first == ["widget": "cfg-1", "label": "A", "showTitle": true, "style": "plain"])
        #expect(second == ["widget": "cfg-2", "label": "B", "showTitle": true, "style": "bold"])
        #expect(test.host.currentConfigurations().map(\.configuration) == [first, second])
    }

    @Test("The configuration survives a restart: the restored host sends it again")
    func survivesRestart() throws {
        var test = TestHost.intents()
        let a = try #require(TestHost.added(test.addConfigured(["widget": "cfg-2", "label": "A"])))
        var restarted = TestHost.intents()
        restarted.host = WidgetHost(restoring: test.host.host, widgets: test.host.allRecords)
        restarted.handle(.hostStarted(bootID: "boot-2"))
        restarted.handle(.catalogChanged([intentExtension]))
        #expect(restarted.timelineRequests(WidgetID(a.id)).last?.configuration?["widget"] == "cfg-2")
    }

    @Test(
        "Bad configurations are refused with a sentence that names the parameter and what is accepted",
        arguments: [
            (["labl": "x"], "SelectWidgetIntent has no parameter \"labl\"; its parameters are widget, showTitle, style, count, label"),
            (["label": "x", "count": "many"], "count must be an integer, not \"many\""),
            (["label": "x", "showTitle": 3], "showTitle must be true or false, not 3"),
            (["label": "x", "style": "italic"], "\"italic\" is not a choice for style; choices are plain (Plain), bold (Bold)"),
            ([:], "label (Label) needs a value; set it with label=…"),
            (["label": "x", "widget": "cfg-9"], "\"cfg-9\" is not a choice for widget; choices are cfg-1 (Morning), cfg-2 (Evening)"),
        ] as [(IntentValues, String)])
    func badInput(values: IntentValues, message: String) {
        var test = TestHost.intents()
        let reply = test.addConfigured(values)
        #expect(refusal(reply) == "WidgyWidget: " + message)
        #expect(test.host.widgets.isEmpty)
    }

    @Test("Strings from the command line are read as the parameter's type")
    func stringsAreRead() throws {
        var test = TestHost.intents()
        let a = try #require(TestHost.added(test.addConfigured(["label": "x", "count": "3", "showTitle": "false"])))
        #expect(a.configuration?["count"] == .integer(3))
        #expect(a.configuration?["showTitle"] == .bool(false))
    }

    @Test("A configuration for a static kind is refused; none is fine")
    func staticKind() {
        var test = TestHost.intents()
        #expect(refusal(test.addConfigured(["x": "1"], kind: "HabitWidget"))?.contains("is not configurable") == true)
        #expect(TestHost.added(test.addConfigured(nil, kind: "HabitWidget")) != nil)
    }

    @Test("The query that vouches for an entity times out: the add is refused with the reason, nothing is added")
    func queryTimesOut() throws {
        var test = TestHost.intents()
        test.intents = { _ in nil }
        let step = test.handle(.widgetAdded(AddWidgetRequest(kind: "WidgyWidget", family: .systemSmall, configuration: ["label": "x", "widget": "cfg-1"])))
        guard case .answerLater(let token)? = step.reply else { Issue.record("expected answerLater"); return }
        test.advance(by: 5)
        let message = try #require(refusal(test.answers[token]))
        #expect(message.hasPrefix("WidgyWidget: could not check widget against the extension's query: no reply after 5.00s"))
        #expect(test.host.widgets.isEmpty)
    }

    @Test("configureWidget is the user editing: the widget reloads exempt (userInteraction) with its new values")
    func configure() throws {
        var test = TestHost.intents(configuration: config { $0.budget.pinned = ["WidgyWidget": 1] })
        let a = WidgetID(try #require(TestHost.added(test.addConfigured(["label": "x", "widget": "cfg-1"]))).id)
        test.advance(by: 60)
        let reply = test.answered(.widgetConfigured(a, ["widget": "cfg-2", "count": 4]))
        guard case .configured(let result)? = reply else { Issue.record("expected configured: \(String(describing: reply))"); return }
        #expect(result.reload.outcome == .started)
        #expect(!result.reload.budgeted)
        #expect(test.started(a).last?.charge == .exempt(.userInteraction))
        #expect(test.timelineRequests(a).last?.configuration == ["label": "x", "widget": "cfg-2", "count": 4, "showTitle": true, "style": "plain"])
        // A null removes a value; a wrong value changes nothing.
        let cleared = test.answered(.widgetConfigured(a, ["count": .null]))
        #expect(refusal(cleared) == nil, "\(String(describing: cleared))")
        #expect(test.host.record(of: a)?.info.configuration?["count"] == nil)
        #expect(refusal(test.answered(.widgetConfigured(a, ["widget": "nope"])))?.contains("\"nope\" is not a choice") == true)
        #expect(test.host.record(of: a)?.info.configuration?["widget"] == "cfg-2")
    }

    @Test("options: an enum's cases at once, an entity's from the extension's query, an unknown parameter named")
    func options() {
        var test = TestHost.intents()
        #expect(test.answered(.optionsRequested(kind: "WidgyWidget", parameter: "style", app: nil)) == .options(IntentOptionsResult(options: pickSchema.parameters[2].options!)))
        #expect(test.answered(.optionsRequested(kind: "WidgyWidget", parameter: "widget", app: nil)) == .options(IntentOptionsResult(options: savedWidgets)))
        #expect(refusal(test.answered(.optionsRequested(kind: "WidgyWidget", parameter: "colour", app: nil))) == "WidgyWidget's configuration has no parameter \"colour\"; its parameters are widget, showTitle, style, count, label")
    }
}
