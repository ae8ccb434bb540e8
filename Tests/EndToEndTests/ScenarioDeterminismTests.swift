import Foundation
import Testing
import WidgetHostProtocol

/// `widgethost simulate` in two separate processes: Swift seeds its hasher per process, so a
/// report that iterated a Dictionary or Set would differ between runs even though it is the
/// same within one. The sports scenario has pushes that exhaust the priority-10 budget and
/// the frequent-updates entitlement that raises it.
@Suite("The harness's Live Activity report is byte-identical across processes")
struct ScenarioDeterminismTests {
    static let sports = RealDaemon.packageRoot.appendingPathComponent("scenarios/live-activity-sports.toml").path

    @Test("live-activity-sports.toml: the same JSON and SVG bytes from two processes; the standard budget runs out, the entitled one does not")
    func twoProcesses() throws {
        let directory = try TemporaryDirectory()
        var outputs: [(json: String, svg: Data)] = []
        for run in 1...2 {
            let svg = directory.path + "/sports-\(run).svg"
            let result = try CLI.run(["simulate", Self.sports, "--json", "--svg", svg])
            try #require(result.status == 0, "\(result.stderr)")
            outputs.append((result.stdout, try Data(contentsOf: URL(fileURLWithPath: svg))))
        }
        #expect(outputs[0].json == outputs[1].json)
        #expect(outputs[0].svg == outputs[1].svg)
        #expect(!outputs[0].svg.isEmpty)

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(outputs[0].json.utf8)) as? [String: Any])
        let activities = try #require(report["activities"] as? [[String: Any]], "\(report.keys.sorted())")
        let standard = try #require(activities.first { $0["app"] as? String == "com.example.scores" })
        let entitled = try #require(activities.first { $0["app"] as? String == "com.example.scores-plus" })
        #expect(standard["pushBudget"] as? Int == 10)
        #expect(standard["exhaustedAt"] as? String == "2026-02-15T19:22:00Z")
        #expect(standard["throttled"] as? Int == 39)
        #expect(entitled["pushBudget"] as? Int == 60)
        #expect(entitled["frequentUpdates"] as? Bool == true)
        #expect(entitled["exhaustedAt"] == nil)
        #expect(entitled["throttled"] as? Int == 0)
    }
}
