import Foundation
import Testing
import WidgetHostCore
import WidgetHostDaemon
import WidgetHostDriver
import WidgetHostProtocol

@Suite("Live Activities in the state file")
struct ActivityStateTests {
    private static let t0 = Date(timeIntervalSince1970: 1_771_113_600)

    /// Runs core steps and writes each step's persist effect, as the driver does.
    private struct Steps {
        var host = WidgetHost()
        let store: any StateStore
        var now = ActivityStateTests.t0

        mutating func activity(_ command: ActivityCommand) throws -> ActivityReply {
            let step = host.handle(.activity(command), at: now)
            for case .persist(let scope) in step.effects { try store.write(scope, from: host) }
            guard case .activity(let reply)? = step.reply else { throw StateError.unencodable(widget: "?", reason: "") }
            return reply
        }
    }

    @Test("An activity started before a restart is still there, with its push ledger, story and id counter", .tags(.sqliteShell))
    func survivesRestart() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        var steps = Steps(store: store)
        _ = steps.host.handle(.hostStarted(bootID: "boot-1"), at: steps.now)
        guard
            case .activity(let info) = try steps.activity(
                .request(
                    ActivityRequestParams(
                        app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes",
                        attributes: ["orderNumber": "12345"], content: ActivityContentPayload(state: ["status": "preparing"]),
                        pushType: "token")))
        else {
            Issue.record("request refused")
            return
        }
        for minute in 1...3 {
            steps.now = Self.t0 + Double(minute) * 60
            _ = try steps.activity(
                .push(
                    ActivityPushParams(
                        token: info.pushToken!, priority: 10,
                        payload: ["aps": ["event": "update", "content-state": ["status": .string("step \(minute)")]]])))
        }

        let loaded = try #require(try SQLiteStateStore(directory: scratch.path).load())
        #expect(loaded.activities.all == steps.host.activities.all)
        #expect(loaded.activities.host.nextActivityNumber == 2)
        #expect(loaded.activities[info.id]?.pushLedger.count == 3)
        #expect(loaded.activities[info.id]?.content.state == ["status": "step 3"])
        let restored = WidgetHost(restoring: loaded.host, widgets: loaded.widgets, activities: loaded.activities)
        #expect(restored.activityInfo(loaded.activities[info.id]!, at: steps.now).pushBudget.used == 3)
        // The copy for sqlite3 readers.
        #expect(
            try sqlite3(store.path, "SELECT id, app, state FROM activities") == "a1|com.example.pizza|active")
        #expect(try sqlite3(store.path, "SELECT count(*) FROM activity_pushes WHERE activity_id = 'a1'") == "3")
    }

    @Test("The in-memory store keeps activities too")
    func inMemory() throws {
        let store = InMemoryStateStore()
        var steps = Steps(store: store)
        _ = try steps.activity(
            .request(
                ActivityRequestParams(
                    app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", attributes: [:],
                    content: ActivityContentPayload(state: [:]))))
        #expect(try store.load()?.activities.all.map(\.id) == ["a1"])
    }
}
