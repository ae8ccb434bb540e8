import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit
import WidgyShared

@Suite("Widgy: each widget picks a saved design (SelectWidgetIntent)")
struct WidgyConfigurationTests {
    /// A container with three saved designs: "small" (systemSmall), then "both", then "medium"
    /// (most recent); each a Text naming itself.
    static func saved() throws -> TemporaryContainer {
        let temporary = try TemporaryContainer()
        let container = WidgyContainer(url: temporary.url)
        for (id, families) in [("small", ["systemSmall"]), ("both", ["systemSmall", "systemMedium"]), ("medium", ["systemMedium"])] {
            try container.save(
                WidgyWidgetTests.config(id: id, families: families, layout: #"{"type": "Text", "content": "\#(id)"}"#),
                now: WidgyWidgetTests.now)
        }
        return temporary
    }

    static func shown(_ temporary: TemporaryContainer, _ pick: String?, _ family: WidgetFamily) async -> WidgySummary {
        let intent = SelectWidgetIntent(widget: pick.map { WidgyDesignEntity(id: $0, name: $0) })
        let timeline = await WidgyWidgetTests.provider(temporary).timeline(for: intent, in: TimelineProviderContext(family: family))
        #expect(timeline.entries.count == 1 && timeline.policy == .never)
        return WidgySummary(entry: timeline.entries[0])
    }

    @Test("A picked design is shown whatever was saved since; none picked shows the most recent for the family")
    func picked() async throws {
        let temporary = try Self.saved()
        defer { temporary.remove() }
        #expect(await Self.shown(temporary, "small", .systemSmall).widgetID == "small")
        #expect(await Self.shown(temporary, "both", .systemMedium).widgetID == "both")
        #expect(await Self.shown(temporary, nil, .systemSmall).widgetID == "both")
        #expect(await Self.shown(temporary, nil, .systemMedium).widgetID == "medium")
    }

    @Test("A design picked for a family it was not made for says so and how to fix it")
    func wrongFamily() async throws {
        let temporary = try Self.saved()
        defer { temporary.remove() }
        let shown = await Self.shown(temporary, "medium", .systemSmall)
        #expect(shown.problem == #""medium" is not designed for systemSmall; pick another widget in its settings"#)
    }

    @Test("The query offers the saved designs, most recent first and by default, and finds a picked one by id")
    func query() async throws {
        let temporary = try Self.saved()
        defer { temporary.remove() }
        let url = temporary.url
        let query = WidgyDesignQuery(container: { WidgyContainer(url: url) })
        #expect(try await query.suggestedEntities().map(\.id) == ["medium", "both", "small"])
        #expect(await query.defaultResult()?.name == "medium")
        #expect(try await query.entities(for: ["small", "gone"]).map(\.id) == ["small"])
        let none = WidgyDesignQuery(container: { nil })
        #expect(try await none.suggestedEntities().isEmpty)
        #expect(await none.defaultResult() == nil)
    }

    @Test("As the host runs it: the schema in initialize, the choices from intent/options, the pick in timeline/get")
    func process() throws {
        let temporary = try Self.saved()
        defer { temporary.remove() }
        let widget = ExtensionUnderTest("WidgyWidget", appGroups: [WidgyContainer.appGroup: temporary.url])
        func timeline(_ configuration: JSONValue) -> JSONValue {
            [
                "kind": "WidgyWidget", "family": "systemSmall", "widgetId": "w1", "now": "2026-12-08T12:00:00Z",
                "configuration": configuration,
            ]
        }
        let results = try widget.call([
            ("initialize", [:]),
            ("intent/options", ["kind": "WidgyWidget", "parameter": "widget"]),
            ("timeline/get", timeline(["widget": "small"])),
            ("timeline/get", timeline([:])),
            // Deleted in the app since it was picked: as on a device, the parameter reads nil.
            ("timeline/get", timeline(["widget": "deleted"])),
        ])
        let intent = try #require(results[0]["widgets"]?[0]?["intent"]).decode(as: IntentSchema.self)
        #expect(intent.type == "WidgyShared.SelectWidgetIntent" && intent.title == "Choose a widget")
        #expect(intent.parameters == [IntentParameterSchema(name: "widget", title: "Widget", type: .entity, optional: true, query: true)])
        let options = try results[1].decode(as: IntentOptionsResult.self)
        #expect(options.options == [.init(id: "medium", title: "medium"), .init(id: "both", title: "both"), .init(id: "small", title: "small")])
        #expect(options.defaultId == "medium")
        #expect(results[2]["entries"]?[0]?.viewTexts == ["small"])
        #expect(results[3]["entries"]?[0]?.viewTexts == ["both"])
        #expect(results[4]["entries"]?[0]?.viewTexts == ["both"])
    }
}
