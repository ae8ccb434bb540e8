import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol

/// `widgethost push widget TOKEN` against a real daemon and the Python fixture extension of
/// docs/protocol.md (Tests/Fixtures/Extensions/extension.py): one budgeted reload per
/// instance of the kind, and APNs' reasons for bad pushes.
@Suite("WidgetKit pushes, real daemon", .serialized)
struct WidgetPushTests {
    static let config = "[policy]\nmin_reload_interval = 0\n[budget]\npinned = { WellBehavedWidget = 2 }\n"

    static func timelineRequests(_ daemon: RealDaemon) -> Int {
        let log = daemon.directory + "/groups/group.com.fixture.wellbehaved/requests.log"
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0 == "timeline/get" }.count
    }

    /// Waits until no reload runs and every widget has an outcome.
    static func settle(_ client: ControlClient) throws -> StatusResult {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let status: StatusResult = try client.call(.status, params: StatusParams())
            if status.widgets.allSatisfy({ $0.lastOutcome != nil && !$0.reloadRunning }) || Date() > deadline { return status }
            usleep(20_000)
        }
    }

    static func used(_ status: StatusResult, kind: String) -> [Int] {
        status.widgets.filter { $0.widget.kind == kind }.map(\.budget.used)
    }

    @Test("A WidgetKit push reloads each instance of the fixture's kind once, budgeted; other kinds are untouched; the budget runs out")
    func reloadsEachInstanceOnce() throws {
        let daemon = try RealDaemon(config: Self.config, fixtures: ["WellBehaved"])
        let client = try ControlClient(socketPath: daemon.socket)
        for family in [WidgetFamily.systemSmall, .systemMedium] {
            let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: family))
        }
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "PyClock", family: .systemSmall))
        let before = try Self.settle(client)
        #expect(Self.used(before, kind: "WellBehavedWidget") == [0, 0])
        let timelinesBefore = Self.timelineRequests(daemon)

        let tokens = try daemon.cli("push", "tokens", "--app", "com.fixture.wellbehaved")
        let line = try #require(tokens.stdout.split(separator: "\n").first { $0.contains("WellBehavedWidget") }, "\(tokens.stdout)")
        let token = try #require(line.split(separator: " ").last.map(String.init))
        #expect(token.count == 64)

        let pushed = try daemon.cli("push", "widget", token)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.split(separator: "\n").count == 2, "\(pushed.stdout)")
        #expect(pushed.stdout.contains("started (budgeted, 1 of 2 used)"), "\(pushed.stdout)")
        let after = try Self.settle(client)
        #expect(Self.used(after, kind: "WellBehavedWidget") == [1, 1])
        #expect(Self.used(after, kind: "PyClock") == Self.used(before, kind: "PyClock"))
        #expect(Self.timelineRequests(daemon) == timelinesBefore + 2)

        // The same body, given explicitly, is the second push; the third finds the budget spent.
        let body = daemon.directory + "/widget-push.json"
        try #"{"aps":{"content-changed":true}}"#.write(toFile: body, atomically: true, encoding: .utf8)
        #expect(try daemon.cli("push", "widget", token, "--payload", body).status == 0)
        _ = try Self.settle(client)
        let third = try daemon.cli("push", "widget", token, "--json")
        let result = try WireCoding.decode(WidgetPushResult.self, from: Data(third.stdout.utf8))
        #expect(result.kind == "WellBehavedWidget")
        #expect(result.extension == "com.fixture.wellbehaved.widget")
        #expect(result.reload.outcomes.count == 2)
        #expect(result.reload.outcomes.allSatisfy { $0.reason == .budgetExhausted }, "\(third.stdout)")
        #expect(Self.timelineRequests(daemon) == timelinesBefore + 4)
    }

    @Test("A bad token, a body over 4 KB, malformed JSON and a body WidgetKit ignores get clear errors, and reload nothing")
    func badPushes() throws {
        let daemon = try RealDaemon(config: Self.config, fixtures: ["WellBehaved"])
        let client = try ControlClient(socketPath: daemon.socket)
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: .systemSmall))
        _ = try Self.settle(client)
        let timelines = Self.timelineRequests(daemon)
        let tokens: PushTokensResult = try client.call(.pushTokens, params: PushTokensParams(app: "com.fixture.wellbehaved"))
        let token = try #require(tokens.widgets.first?.token)

        let unknown = try daemon.cli("push", "widget", String(repeating: "ab", count: 32))
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("BadDeviceToken: no widget push token abab"), "\(unknown.stderr)")

        let huge = daemon.directory + "/huge.json"
        try (#"{"aps":{"content-changed":true},"pad":""# + String(repeating: "x", count: 5000) + #""}"#).write(
            toFile: huge, atomically: true, encoding: .utf8)
        let tooLarge = try daemon.cli("push", "widget", token, "--payload", huge)
        #expect(tooLarge.status == 65)
        #expect(tooLarge.stderr.contains("PayloadTooLarge: the payload is 5041 bytes; APNs takes at most 4096 for a WidgetKit push"), "\(tooLarge.stderr)")

        let malformed = daemon.directory + "/malformed.json"
        try #"{"aps": {"content-changed": tru"#.write(toFile: malformed, atomically: true, encoding: .utf8)
        let bad = try daemon.cli("push", "widget", token, "--payload", malformed)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--payload \(malformed) is not valid JSON"), "\(bad.stderr)")

        let ignored = daemon.directory + "/ignored.json"
        try #"{"aps":{"alert":"hi"}}"#.write(toFile: ignored, atomically: true, encoding: .utf8)
        let noChange = try daemon.cli("push", "widget", token, "--payload", ignored)
        #expect(noChange.status == 65)
        #expect(noChange.stderr.contains("BadPayload: aps.content-changed is missing"), "\(noChange.stderr)")

        let empty = try daemon.cli("push", "widget", "")
        #expect(empty.stderr.contains("MissingDeviceToken"), "\(empty.stderr)")

        usleep(200_000)
        let status = try Self.settle(client)
        #expect(Self.used(status, kind: "WellBehavedWidget") == [0])
        #expect(Self.timelineRequests(daemon) == timelines)
    }
}
