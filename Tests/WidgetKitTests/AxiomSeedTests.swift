import AxiomIntentsFixture
import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

/// seeds/004's App Intents snippets, compiled unchanged in the Swift 5 language mode
/// (Tests/Fixtures/AxiomIntents), served as the host would.
@Suite("The axiom seed's configurable widget, served")
struct AxiomSeedTests {
    @Test("Its intent's schema, its query's projects, and the picked project in its timeline")
    func served() async throws {
        let channel = Channel(try AxiomSeed.server())
        let widget = try #require(try await channel.result("initialize", as: InitializeResult.self).widgets.first)
        #expect(widget.kind == "MyConfigurableWidget" && widget.displayName == "Project Status")
        #expect(widget.intent?.title == "Select Project")
        #expect(
            widget.intent?.parameters
                == [IntentParameterSchema(name: "project", title: "Project", type: .entity, optional: true, query: true)])
        let options = try await channel.result(
            "intent/options", ["kind": "MyConfigurableWidget", "parameter": "project"], as: IntentOptionsResult.self)
        #expect(options.options.map(\.title) == ["Garden", "Kitchen"])
        let timeline = try await channel.result(
            "timeline/get",
            ["kind": "MyConfigurableWidget", "family": "systemSmall", "widgetId": "w1", "now": "2026-02-15T08:00:00Z",
             "configuration": ["project": "p2"]], as: TimelinePayload.self)
        let root = try #require(timeline.entries.first?.view?.root)
        #expect(root.intentControls.map(\.control.intent.type) == ["AxiomIntentsFixture.RefreshIntent"])
        guard case .vstack(_, _, let children) = root.content, case .text(let runs) = children.first?.content else {
            Issue.record("unexpected view \(root)")
            return
        }
        #expect(runs.map(\.content) == [.string("Kitchen")])
    }
}
