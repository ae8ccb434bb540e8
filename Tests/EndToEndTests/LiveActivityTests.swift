import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol

/// Live Activities against the real daemon: the Python app of docs/protocol.md, pushes from
/// the CLI, the budget, a restart, and the bad inputs.
@Suite("Live Activities, real daemon", .serialized)
struct LiveActivityTests {
    /// The ```python block of docs/protocol.md that starts an activity; prints "ID TOKEN".
    static func runDocsApp(_ daemon: RealDaemon) throws -> (id: String, token: String) {
        let docs = try String(contentsOf: RealDaemon.packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let start = try #require(docs.range(of: "```python\n#!/usr/bin/env python3\n# A Live Activity app"))
        let end = try #require(docs.range(of: "```", range: start.upperBound..<docs.endIndex))
        let script = daemon.directory + "/pizza.py"
        try String(docs[docs.index(start.lowerBound, offsetBy: 10)..<end.lowerBound]).write(
            toFile: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script]
        process.environment = ["WIDGETHOST_SOCKET": daemon.socket, "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let words = output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(process.terminationStatus == 0 && words.count == 2, "the docs app printed \(output)")
        return (words[0], words[1])
    }

    static func stateFile(_ daemon: RealDaemon, _ json: String) throws -> String {
        let path = daemon.directory + "/state-\(UInt32.random(in: 0...UInt32.max)).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("A Python app from docs/protocol.md starts an activity; a priority-10 push updates it; the 11th in an hour is throttled")
    func docsAppAndPushes() throws {
        let daemon = try RealDaemon()
        let (id, token) = try Self.runDocsApp(daemon)
        #expect(id == "a1")
        #expect(token.count == 64)

        let onTheWay = try Self.stateFile(daemon, #"{"status":"onTheWay","driverName":"John"}"#)
        let pushed = try daemon.cli("push", "activity", token, "--priority", "10", "--content-state", onTheWay, "--alert", "On its way|John has it")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.contains("a1  update delivered — 1 of 10 priority-10 pushes in the last hour"), "\(pushed.stdout)")

        let story = try daemon.cli("activity", "a1", "--json")
        let detail = try WireCoding.decode(ActivityDetailResult.self, from: Data(story.stdout.utf8))
        #expect(detail.activity.content.state == ["status": "onTheWay", "driverName": "John"])
        #expect(detail.activity.lastAlert?.title == "On its way")
        #expect(detail.history.map(\.event) == ["requested", "updated"])

        for _ in 2...10 { _ = try daemon.cli("push", "activity", token, "--content-state", onTheWay) }
        let throttled = try daemon.cli("push", "activity", token, "--content-state", onTheWay)
        #expect(throttled.status == 0)
        #expect(throttled.stdout.contains("update throttled until"), "\(throttled.stdout)")
        #expect(throttled.stdout.contains("(pushBudgetExhausted)"))
        let free = try daemon.cli("push", "activity", token, "--priority", "5", "--content-state", onTheWay)
        #expect(free.stdout.contains("delivered — priority 5, not budgeted"), "\(free.stdout)")

        let list = try daemon.cli("activities")
        #expect(list.stdout.contains("a1  com.example.pizza  PizzaDeliveryAttributes  active"), "\(list.stdout)")
        #expect(list.stdout.contains("pushes 10/10"))
    }

    @Test("An activity survives kill -9 and a restart, with its push ledger")
    func survivesRestart() throws {
        let daemon = try RealDaemon()
        let (_, token) = try Self.runDocsApp(daemon)
        let state = try Self.stateFile(daemon, #"{"status":"onTheWay"}"#)
        for _ in 1...3 { _ = try daemon.cli("push", "activity", token, "--content-state", state) }
        daemon.kill9()
        try daemon.start()
        let list = try daemon.cli("activities", "--json")
        let result = try WireCoding.decode(ActivityListResult.self, from: Data(list.stdout.utf8))
        #expect(result.activities.map(\.id) == ["a1"])
        #expect(result.activities.first?.pushBudget.used == 3)
        #expect(result.activities.first?.content.state == ["status": "onTheWay"])
        let next = try daemon.cli("push", "activity", token, "--content-state", state)
        #expect(next.stdout.contains("4 of 10"), "\(next.stdout)")
    }

    @Test("A push to an ended activity, a bad token, an oversized payload and malformed JSON get clear errors")
    func badPushes() throws {
        let daemon = try RealDaemon()
        let (id, token) = try Self.runDocsApp(daemon)
        let huge = try Self.stateFile(daemon, #"{"pad":""# + String(repeating: "x", count: 5000) + #""}"#)
        let tooLarge = try daemon.cli("push", "activity", token, "--content-state", huge)
        #expect(tooLarge.status == 65)
        #expect(tooLarge.stderr.contains("PayloadTooLarge"), "\(tooLarge.stderr)")
        let malformed = try Self.stateFile(daemon, #"{"status": "#)
        let bad = try daemon.cli("push", "activity", token, "--content-state", malformed)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("is not valid JSON"), "\(bad.stderr)")
        let good = try Self.stateFile(daemon, #"{"status":"onTheWay"}"#)
        let unknown = try daemon.cli("push", "activity", String(repeating: "ab", count: 32), "--content-state", good)
        #expect(unknown.stderr.contains("BadDeviceToken"), "\(unknown.stderr)")

        let client = try ControlClient(socketPath: daemon.socket)
        let _: ActivityInfo = try client.call(.activityEnd, params: ActivityEndParams(id: id, dismissalPolicy: .immediate))
        let ended = try daemon.cli("push", "activity", token, "--content-state", huge)
        #expect(ended.stderr.contains("PayloadTooLarge"))
        let state = try Self.stateFile(daemon, #"{"status":"late"}"#)
        let afterEnd = try daemon.cli("push", "activity", token, "--content-state", state)
        #expect(afterEnd.status == 65)
        #expect(afterEnd.stderr.contains("Unregistered: Live Activity a1 is dismissed (ended at"), "\(afterEnd.stderr)")
    }
}

@Suite("The pizza app (ActivityKit) against the real daemon", .serialized)
struct PizzaAppTests {
    static func pizza(_ daemon: RealDaemon, _ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = RealDaemon.packageRoot.appendingPathComponent(".build/debug/pizza")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "pizza is not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ["WIDGETHOST_SOCKET": daemon.socket, "TZ": "UTC"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }

    @Test("pizza starts the seed's activity through ActivityKit, updates it, receives a push, and ends it")
    func startUpdatePushEnd() throws {
        let daemon = try RealDaemon()
        let started = try Self.pizza(daemon, "start", "--token")
        #expect(started.status == 0, "\(started.stderr)")
        let words = started.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(words.first == "a1")
        let token = try #require(words.last)
        #expect(token.count == 64)

        let updated = try Self.pizza(daemon, "update", "a1", "--driver", "John", "--alert")
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout.contains("a1 active onTheWay"), "\(updated.stdout)")
        let story = try daemon.cli("activity", "a1", "--json")
        let detail = try WireCoding.decode(ActivityDetailResult.self, from: Data(story.stdout.utf8))
        #expect(detail.activity.attributesType == "PizzaDeliveryAttributes")
        #expect(detail.activity.attributes == ["orderNumber": "12345", "pizzaType": "Pepperoni"])
        #expect(detail.activity.content.state["driverName"] == "John")
        #expect(detail.activity.lastAlert?.body == "Your Pepperoni pizza has arrived")

        // The provider pushes the next state; the app reads it back through ActivityKit.
        let state = daemon.directory + "/delivered.json"
        try #"{"status":"delivered","estimatedDeliveryTime":"2026-02-15T12:00:00Z","driverName":"Ada"}"#.write(
            toFile: state, atomically: true, encoding: .utf8)
        let pushed = try daemon.cli("push", "activity", token, "--content-state", state)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let listed = try Self.pizza(daemon, "list")
        #expect(listed.stdout.contains("a1 active 12345 delivered"), "\(listed.stdout)")

        let ended = try Self.pizza(daemon, "end", "a1", "--immediate")
        #expect(ended.stdout.contains("a1 dismissed"), "\(ended.stdout)")
        #expect(try Self.pizza(daemon, "list").stdout.isEmpty)
    }

    @Test("Too many deliveries at once is targetMaximumExceeded, as ActivityKit names it")
    func tooMany() throws {
        let daemon = try RealDaemon(config: "[activities]\nmax_per_app = 1\n")
        #expect(try Self.pizza(daemon, "start").status == 0)
        let second = try Self.pizza(daemon, "start")
        #expect(second.status == 65)
        #expect(second.stderr.contains("targetMaximumExceeded"), "\(second.stderr)")
    }
}
