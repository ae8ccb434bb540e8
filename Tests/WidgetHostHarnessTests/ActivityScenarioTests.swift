import Foundation
import Testing
import WidgetHostCore
import WidgetHostHarness
import WidgetHostProtocol

@Suite("Live Activities in the harness")
struct ActivityScenarioTests {
    static let sports = HarnessFixture.packageRoot.appendingPathComponent("scenarios/live-activity-sports.toml").path

    @Test("live-activity-sports.toml: the standard budget runs out 22 minutes in, the frequent-updates one never")
    func sportsScenario() throws {
        let result = try Simulation.run(try Scenario.load(contentsOf: Self.sports))
        let standard = try #require(result.activity("a1"))
        let frequent = try #require(result.activity("a2"))
        // 59 pushes 19:02–20:58; 10 an hour get through.
        #expect(standard.pushesSent == 59)
        #expect(standard.priority10Delivered == 20)
        #expect(standard.throttled == 39)
        #expect(standard.pushBudget == 10)
        #expect(standard.exhaustedAt == t0.at("19:22"))
        #expect(standard.behindSeconds > 3600)
        #expect(standard.staleSeconds > 3600)
        #expect(standard.state == .ended)
        #expect(frequent.priority10Delivered == 59)
        #expect(frequent.exhaustedAt == nil)
        #expect(frequent.pushBudget == 60 && frequent.frequentUpdates)
        #expect(frequent.staleSeconds == 0)
        #expect(frequent.state == .dismissed)
        // The widget's pushes count against its budget of 8.
        #expect(result.widget("w1")?.budgetedReloads == 8)
        #expect(result.widget("w1")?.exhaustedAt != nil)
        let text = result.text(timeZone: TimeZone(identifier: "UTC")!)
        #expect(text.contains("1 of 2 Live Activities ran out of push budget"))
        let svg = result.svg(timeZone: TimeZone(identifier: "UTC")!)
        #expect(svg.contains("push budget exhausted at 19:22"))
        #expect(svg.contains("class='behind'"))
    }

    @Test("The same scenario gives the same JSON, activities and pushes included")
    func deterministic() throws {
        let scenario = try Scenario.load(contentsOf: Self.sports)
        let first = try Simulation.run(scenario).json()
        #expect(first == (try Simulation.run(scenario).json()))
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.contains("\"type\" : \"activityThrottled\""))
        #expect(text.contains("\"type\" : \"activityPush\""))
    }

    @Test("Local updates are never budgeted; a staleDate with no update makes the activity stale; the 8-hour end applies")
    func localUpdatesAndLifetime() throws {
        let fixture = try HarnessFixture()
        let result = try fixture.run(
            """
            [simulation]
            start = "2026-02-15T00:00:00Z"
            duration = "14h"
            [[activity]]
            app = "com.example.timer"
            start = "01:00"
            stale_after = "10m"
            updates = [ { every = "1m", from = "01:00", until = "03:00" } ]
            """)
        let activity = try #require(result.activity("a1"))
        #expect(activity.localUpdates == 119)
        #expect(activity.throttled == 0)
        #expect(activity.state == .dismissed)
        #expect(activity.endedAt == t0.at("09:00"))
        #expect(activity.dismissedAt == t0.at("13:00"))
        // Stale from 03:09 (10 minutes after the last update) until the 8-hour end.
        #expect(activity.staleSeconds == t0.at("09:00").timeIntervalSince(t0.at("03:09")))
    }

    @Test(
        "Bad [[activity]] tables are refused with the line and the fix",
        arguments: [
            ("[[activity]]\nstart = \"01:00\"\n", "scenario.toml:4: activity[1] has no app"),
            ("[[activity]]\napp = \"a\"\npushes = [ { every = \"1m\", priority = 7 } ]\n", "activity[1].pushes[1].priority must be 5 or 10"),
            ("[[activity]]\napp = \"a\"\ndismissal = \"later\"\n", "activity[1].dismissal must be \"default\", \"immediate\" or \"after\""),
            ("[[activity]]\napp = \"a\"\ncolour = 1\n", "colour"),
        ])
    func badTables(text: String, expected: String) throws {
        let fixture = try HarnessFixture()
        let path = try fixture.scenario("[simulation]\nstart = \"2026-02-15T00:00:00Z\"\n\n" + text)
        #expect {
            _ = try Scenario.load(contentsOf: path)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }
}
