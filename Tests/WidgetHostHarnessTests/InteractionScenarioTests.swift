import Foundation
import Testing
import WidgetHostHarness
import WidgetHostProtocol

/// The exemptions the core knows, replayed by the harness: taps on a widget's button
/// (appIntent), configuration edits (userInteraction), a locale and a Dynamic Type change.
@Suite("Taps, edits and device changes in a scenario")
struct InteractionScenarioTests {
    static func scenario(widget: String, extra: String = "") -> String {
        """
        [simulation]
        start = "2026-02-15T00:00:00Z"
        duration = "24h"

        [[widget]]
        kind = "HabitWidget"
        provider = { policy = "never" }
        budget = 5
        \(widget)

        [[app]]
        id = "com.example.habits"
        \(extra)
        """
    }

    static let tapsEveryHalfHour = #"taps = [ { every = "30m", from = "08:00", until = "20:00" } ]"#

    static func exemptions(_ result: SimulationResult, _ id: String) -> [Exemption] {
        result.events.compactMap { event in
            guard case .notice(.reloadStarted(let widget, _, .exempt(let reason), _)) = event, widget.id == id else { return nil }
            return reason
        }
    }

    @Test("A button tapped every 30 minutes refreshes its widget at once each time, exempt: B = 5 is never touched")
    func tapsAreExempt() throws {
        let result = try HarnessFixture().run(Self.scenario(widget: Self.tapsEveryHalfHour))
        let widget = try #require(result.widget("w1"))
        #expect(widget.budgetedReloads == 0)
        #expect(widget.exemptReloads == 1 + 24)
        #expect(widget.exhaustedAt == nil)
        #expect(Self.exemptions(result, "w1") == [.added] + Array(repeating: .appIntent, count: 24))
        let intents = result.events.filter {
            if case .notice(.intentFinished(_, "w1", nil, _, "Tap", .succeeded, _, _)) = $0 { true } else { false }
        }
        #expect(intents.count == 24)
    }

    @Test("The same 24 changes reloaded from the app in the background spend B = 5 by 10:00")
    func backgroundReloadsSpendTheBudget() throws {
        let result = try HarnessFixture().run(
            Self.scenario(
                widget: "",
                extra: #"reloads = [ { kind = "HabitWidget", every = "30m", from = "08:00", until = "20:00", when = "background" } ]"#))
        let widget = try #require(result.widget("w1"))
        #expect(widget.budgetedReloads == 5)
        #expect(widget.exhaustedAt == t0.at("10:30"))
    }

    @Test("A configuration edit reloads the widget exempt (userInteraction)")
    func configurationEdit() throws {
        let result = try HarnessFixture().run(Self.scenario(widget: #"configure = [ { at = ["09:00", "21:00"] } ]"#))
        let widget = try #require(result.widget("w1"))
        #expect(widget.budgetedReloads == 0)
        #expect(Self.exemptions(result, "w1") == [.added, .userInteraction, .userInteraction])
    }

    @Test("A locale change and a text size change reload every widget once each, exempt")
    func deviceChanges() throws {
        let result = try HarnessFixture().run(
            Self.scenario(
                widget: "count = 2",
                extra: """
                    [[device]]
                    after = "6h"
                    locale = "fr_FR"
                    [[device]]
                    after = "7h"
                    text_size = "xxLarge"
                    """))
        for id in ["w1", "w2"] {
            #expect(Self.exemptions(result, id) == [.added, .localeChange, .accessibilityChange], "\(id)")
            #expect(try #require(result.widget(id)).budgetedReloads == 0)
        }
        let starts = result.events.compactMap { event -> Date? in
            if case .notice(.reloadStarted(_, let at, .exempt(.localeChange), _)) = event { at } else { nil }
        }
        #expect(starts == [t0.at("06:00"), t0.at("06:00")])
    }

    @Test("Taps, edits and device changes give byte-identical JSON run after run")
    func deterministic() throws {
        let text = Self.scenario(
            widget: #"taps = [ { per_day = [3, 9], from = "08:00", until = "22:00" } ]"# + "\n"
                + #"configure = [ { at = ["12:00"] } ]"#,
            extra: "[[device]]\nafter = \"3h\"\nlocale = \"de_DE\"\n")
        let fixture = try HarnessFixture()
        #expect(try fixture.run(text).json() == fixture.run(text).json())
    }

    @Test(
        "Each mistake in taps, configure and [[device]] is refused on its line with its key",
        arguments: [
            (#"taps = [ { every = "30m", at = ["08:00"] } ]"#, "", "widget[1].taps[1] has every and at"),
            (#"taps = [ { button = "b1" } ]"#, "", "widget[1].taps[1] says when to tap"),
            (#"configure = [ { at = ["08:00"], button = "b1" } ]"#, "", "unknown key button"),
            ("", "[[device]]\nafter = \"2h\"\ntext_size = \"huge\"", "device[1].text_size = \"huge\" is not a Dynamic Type size"),
            ("", "[[device]]\nlocale = \"fr_FR\"", "device[1] has no after"),
            ("", "[[device]]\nafter = \"2h\"", "device[1] changes nothing"),
            ("", "[[device]]\nafter = \"30h\"\nlocale = \"fr_FR\"", "is not inside the simulated period"),
        ])
    func refused(widget: String, extra: String, message: String) throws {
        do {
            _ = try Scenario.parse(text: Self.scenario(widget: widget, extra: extra), file: "bad.toml", directory: ".")
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix("bad.toml:"), "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
