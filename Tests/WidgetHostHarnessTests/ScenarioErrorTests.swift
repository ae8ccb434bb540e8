import Foundation
import Testing
import WidgetHostConfiguration
import WidgetHostHarness

@Suite("Scenario errors name the file, the line and the key")
struct ScenarioErrorTests {
    static let header = """
        [simulation]
        start = "2026-02-15T00:00:00Z"

        """

    private func refusal(_ text: String) -> ConfigError? {
        do {
            _ = try Scenario.parse(text: text, file: "bad.toml", directory: "/tmp")
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "Each mistake is refused on its line with its key",
        arguments: [
            (header + "[[widget]]\nkind = \"A\"\nprovider = { policy = \"sometimes\" }\n", 5, "widget[1].provider.policy"),
            (header + "[[widget]]\nkind = \"A\"\nprovider = { every = \"15 minutes\" }\n", 5, "widget[1].provider.every"),
            (header + "[[widget]]\nkind = \"A\"\nprovider = {}\nviews_per_day = \"12\"\n", 6, "widget[1].views_per_day"),
            (header + "[[widget]]\nkind = \"A\"\nprovider = {}\nfamly = \"systemSmall\"\n", 6, "did you mean family?"),
            (header + "[[widget]]\nkind = \"A\"\nfamily = \"huge\"\nprovider = {}\n", 5, "widget[1].family"),
            (header + "[[widget]]\nkind = \"A\"\n", 3, "neither extension nor provider"),
            (header + "[[widget]]\nprovider = {}\n", 3, "widget[1] has no kind"),
            (header + "[[widget]]\nkind = \"A\"\nextension = \"x.appex\"\nprovider = {}\n", 6, "both extension and provider"),
            (header + "[[widget]]\nkind = \"A\"\nprovider = {}\n[[app]]\nid = \"a\"\nreloads = [ { every = \"10m\", from = \"25:00\" } ]\n", 8, "app[1].reloads[1].from"),
            (header + "[[widget]]\nkind = \"A\"\nprovider = {}\n[[app]]\nid = \"a\"\nreloads = [ { kind = \"A\" } ]\n", 8, "every = \"10m\", at = [\"08:00\"] or per_day"),
            (header + "[host]\nbudget = { min = 80 }\n[[widget]]\nkind = \"A\"\nprovider = {}\n", 4, "host.budget.min"),
            (header + "[host]\nbugdet = { min = 50 }\n", 4, "host.bugdet"),
            ("[simulation]\nstart = \"yesterday\"\n", 2, "simulation.start"),
            ("[simulation]\nstart = \"2026-02-15T00:00:00Z\"\nduration = \"-1h\"\n", 3, "simulation.duration"),
            ("[simulation]\nstart = \"2026-02-15T00:00:00Z\"\ntimezone = \"Mars/Olympus\"\n", 3, "simulation.timezone"),
            ("[simulation]\nstart = \"2026-02-15T00:00:00Z\"\nstart = \"2026-02-16T00:00:00Z\"\n", 3, "duplicate key simulation.start"),
        ])
    func refusedOnItsLine(text: String, line: Int, key: String) throws {
        let error = try #require(refusal(text))
        #expect(error.file == "bad.toml")
        #expect(error.line == line, "\(error)")
        #expect(error.description.hasPrefix("bad.toml:\(line):"))
        #expect(error.message.contains(key), "\(error)")
    }

    @Test(
        "The messages docs/harness.md shows are the ones given",
        arguments: [
            (
                header + "[[widget]]\nkind = \"A\"\nprovider = {}\n[[widget]]\nkind = \"B\"\nprovider = { every = \"15 minutes\" }\n",
                "bad.toml:8: widget[2].provider.every = \"15 minutes\" is not a duration; write a number and a unit (ms, s, m, h, d), as in \"30s\" or \"5m\""
            ),
            (
                header + "[[widget]]\nfamly = \"systemSmall\"\n",
                "bad.toml:4: unknown key famly in [[widget]] (widget[1]); did you mean family? Known keys: kind, family, extension, provider, app, views_per_day, budget, count, taps, configure"
            ),
            (
                header + "[[widget]]\nkind = \"A\"\nprovider = {}\n[[app]]\nid = \"a\"\nreloads = [ { every = \"10m\", from = \"8:00\" } ]\n",
                "bad.toml:8: app[1].reloads[1].from = \"8:00\" is not a time of day; write \"HH:MM\" from \"00:00\" to \"24:00\", as in \"08:00\""
            ),
            (
                "[simulation]\nstart = 2026-02-15T00:00:00Z\n",
                "bad.toml:2: simulation.start: expected a string, got an offset date-time; write it in quotes, as in simulation.start = \"2026-02-15T00:00:00Z\""
            ),
        ])
    func documentedMessages(text: String, expected: String) {
        #expect(refusal(text)?.description == expected)
    }

    @Test("Times of day run to \"24:00\", the end of the day")
    func endOfDay() throws {
        let scenario = try Scenario.parse(
            text: Self.header
                + "[[widget]]\nkind = \"A\"\nprovider = {}\n[[app]]\nid = \"a\"\nreloads = [ { every = \"1h\", from = \"22:00\", until = \"24:00\" } ]\n",
            file: "day.toml", directory: "/tmp")
        guard case .every(_, let from, let until) = try #require(scenario.apps.first?.reloads.first).times else {
            Issue.record("not an every schedule")
            return
        }
        #expect(from == 79_200)
        #expect(until == 86_400)
    }

    @Test("Every scenario the repository ships reads without an error")
    func shippedScenarios() throws {
        let directory = HarnessFixture.packageRoot.appendingPathComponent("scenarios")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".toml") }
        #expect(files.count >= 8)
        for file in files {
            let scenario = try Scenario.load(contentsOf: directory.appendingPathComponent(file).path)
            #expect(!scenario.widgets.isEmpty || !scenario.activities.isEmpty, "\(file)")
        }
    }

    @Test("A scheduled reload of a kind its app does not define names the schedule's line")
    func unknownKindInSchedule() throws {
        let fixture = try HarnessFixture()
        let path = try fixture.scenario(
            Self.header + "[[widget]]\nkind = \"A\"\nprovider = {}\n[[app]]\nid = \"com.example\"\n"
                + "reloads = [ { kind = \"B\", every = \"1h\" } ]\n")
        let scenario = try Scenario.load(contentsOf: path)
        #expect {
            try Simulation.run(scenario)
        } throws: { error in
            "\(error)".hasPrefix("\(path):8: app com.example reloads kind B") && "\(error)".contains("its kinds are A")
        }
    }

    @Test("A missing file is refused as such")
    func missingFile() {
        #expect {
            try Scenario.load(contentsOf: "/nonexistent/scenario.toml")
        } throws: { error in
            (error as? ConfigError)?.kind == .fileNotFound
        }
    }
}
