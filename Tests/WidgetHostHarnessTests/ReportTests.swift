import Foundation
import Testing
import WidgetHostHarness
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Reports: JSON, SVG, table")
struct ReportTests {
    /// Three widgets, one app whose reloads come at random times of the day (drawn from the seed).
    static let onDemand = """
        [simulation]
        start = "2026-02-15T00:00:00Z"
        duration = "2d"
        seed = 3

        [host]
        budget = { min = 40, max = 40 }

        [[widget]]
        kind = "Notes"
        provider = { policy = "never", work = "150ms" }
        count = 2

        [[widget]]
        kind = "Weather"
        provider = { policy = "after", every = "20m", entries = 3 }
        views_per_day = 6

        [[app]]
        id = "com.example.notes"
        reloads = [ { kind = "Notes", per_day = [5, 10] }, { kind = "Weather", every = "7m", from = "06:00", until = "22:00" } ]
        foreground = [ { from = "12:00", for = "30m" } ]
        """

    @Test("Two runs of the same scenario and seed give byte-identical JSON; another seed gives other draws")
    func jsonIsDeterministic() throws {
        let fixture = try HarnessFixture()
        let first = try fixture.run(Self.onDemand).json()
        let second = try fixture.run(Self.onDemand).json()
        #expect(first == second)
        #expect(first.count > 10_000)
        let reseeded = try fixture.run(Self.onDemand, seed: 4).json()
        #expect(reseeded != first)
    }

    @Test("The JSON holds the figures of every widget and the event log")
    func jsonHoldsFiguresAndEvents() throws {
        let fixture = try HarnessFixture()
        let result = try fixture.run(Self.onDemand)
        let object = try #require(try JSONSerialization.jsonObject(with: result.json()) as? [String: Any])
        let widgets = try #require(object["widgets"] as? [[String: Any]])
        #expect(widgets.count == 3)
        for key in [
            "requests", "budgetedReloads", "exemptReloads", "coalesced", "deferred", "budget", "staleSeconds",
            "longestStaleSeconds", "timeouts", "memoryKills", "crashes",
        ] {
            #expect(widgets.allSatisfy { $0[key] != nil }, "missing \(key)")
        }
        let events = try #require(object["events"] as? [[String: Any]])
        let types = Set(events.compactMap { $0["type"] as? String })
        #expect(types.isSuperset(of: ["widgetAdded", "reloadRequested", "reloadStarted", "reloadFinished", "viewRecorded"]))
        // The Weather widget reloads every 7 min in the day but may not more often than B allows.
        let weather = try #require(result.widget("w3"))
        #expect(weather.exhaustedAt != nil)
        #expect(weather.budgetedReloads <= 2 * 40)
    }

    @Test("The SVG is well-formed XML with one lane per widget")
    func svgHasOneLanePerWidget() throws {
        let fixture = try HarnessFixture()
        let result = try fixture.run(Self.onDemand)
        let svg = result.svg(timeZone: TimeZone(identifier: "UTC")!)
        let path = fixture.root.appendingPathComponent("day.svg").path
        try svg.write(toFile: path, atomically: true, encoding: .utf8)

        let counter = LaneCounter()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = counter
        #expect(parser.parse(), "XMLParser: \(String(describing: parser.parserError))")
        #expect(counter.root == "svg")
        #expect(counter.lanes == ["w1", "w2", "w3"])
        #expect(counter.exhaustionMarks == result.widgets.filter { $0.exhaustedAt != nil }.count)

        // And libxml2's own checker, where it is installed (SYSTEM_PACKAGES has libxml2-utils).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") {
            let lint = Process()
            lint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
            lint.arguments = ["--noout", path]
            try lint.run()
            lint.waitUntilExit()
            #expect(lint.terminationStatus == 0)
        }
    }

    @Test("The table has a row per widget with its figures")
    func tableHasARowPerWidget() throws {
        let fixture = try HarnessFixture()
        let result = try fixture.run(HarnessDaySimulationTests.everyTenMinutes(source: #"provider = { policy = "never" }"#))
        let text = result.text(timeZone: TimeZone(identifier: "UTC")!)
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("w1 ") })
        let cells = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(cells == ["w1", "BirthdayHomeWidget", "provider", "70", "143", "70", "1", "72", "1", "11:50", "12h10m", "12h10m", "0", "0", "0"])
    }
}

/// Counts `<g class="lane">` elements and exhaustion markers.
private final class LaneCounter: NSObject, XMLParserDelegate {
    var root: String?
    var lanes: [String] = []
    var exhaustionMarks = 0

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = name }
        if name == "g", attributes["class"] == "lane", let id = attributes["data-widget"] { lanes.append(id) }
        if attributes["class"] == "exhausted" { exhaustionMarks += 1 }
    }
}
