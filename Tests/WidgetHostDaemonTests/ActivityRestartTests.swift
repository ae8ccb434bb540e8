import Foundation
import Testing
import WidgetHostCore
import WidgetHostDaemon
import WidgetHostDriver
import WidgetHostProtocol

/// Live Activities in a real state file: `widgethostd --state-check` counts and checks their
/// tables, and activities in flight survive a restart with their clocks running from the
/// stored start.
@Suite("Live Activities across a restart, and the state check")
struct ActivityRestartTests {
    /// One daemon lifetime: the core on a real SQLite store, each step's persist effect
    /// written as the driver writes it, deadlines handled at their own instants.
    struct Session {
        var host: WidgetHost
        let store: SQLiteStateStore
        var now: Date

        /// A fresh start, or a restart on what `directory` holds.
        init(directory: String, at now: Date) throws {
            store = try SQLiteStateStore(directory: directory)
            host =
                try store.load().map { WidgetHost(restoring: $0.host, widgets: $0.widgets, activities: $0.activities) }
                ?? WidgetHost()
            self.now = now
            try handle(.hostStarted(bootID: "boot-\(Int(now.timeIntervalSince1970))"))
        }

        @discardableResult
        mutating func handle(_ event: HostEvent) throws -> HostStep {
            let step = host.handle(event, at: now)
            for case .persist(let scope) in step.effects { try store.write(scope, from: host) }
            return step
        }

        mutating func activity(_ command: ActivityCommand) throws -> ActivityReply {
            guard case .activity(let reply)? = try handle(.activity(command)).reply else {
                throw StateError.unencodable(widget: "?", reason: "no activity reply")
            }
            return reply
        }

        mutating func start(staleDate: Date? = nil) throws -> ActivityInfo {
            let reply = try activity(
                .request(
                    ActivityRequestParams(
                        app: "com.example.pizza", attributesType: "PizzaDeliveryAttributes", attributes: ["orderNumber": "12345"],
                        content: ActivityContentPayload(state: ["status": "preparing"], staleDate: staleDate), pushType: "token")))
            guard case .activity(let info) = reply else { throw StateError.unencodable(widget: "?", reason: "\(reply)") }
            return info
        }

        mutating func push(_ token: String, _ status: String, timestamp: Date) throws -> ActivityReply {
            try activity(
                .push(
                    ActivityPushParams(
                        token: token, priority: 10,
                        payload: [
                            "aps": [
                                "event": "update", "content-state": ["status": .string(status)],
                                "timestamp": .integer(Int(timestamp.timeIntervalSince1970)),
                            ]
                        ])))
        }

        mutating func advance(to time: Date) throws {
            while let deadline = host.nextDeadline, deadline <= time {
                now = max(now, deadline)
                try handle(.deadlineReached)
            }
            now = time
        }

        func state(_ id: String) -> ActivityStateName? { host.activities[id]?.state }
    }

    @Test("Activities in flight survive a restart; the 8-hour end and the stale date count from the stored times, not the restart")
    func restartInFlight() throws {
        let scratch = ScratchDirectory()
        var first = try Session(directory: scratch.path, at: stateT0)
        let tracked = try first.start()
        let stale = try first.start(staleDate: stateT0 + .hours(2))
        try first.advance(to: stateT0 + .minutes(1))
        _ = try first.push(tracked.pushToken!, "onTheWay", timestamp: stateT0 + .minutes(1))
        try first.advance(to: stateT0 + .minutes(2))
        _ = try first.push(tracked.pushToken!, "nearby", timestamp: stateT0 + .minutes(2))
        // The daemon stops (nothing more is written) and starts again 5 hours later.
        var second = try Session(directory: scratch.path, at: stateT0 + .hours(5))
        #expect(second.host.activities.all.map(\.id) == ["a1", "a2"])
        #expect(second.host.activities[tracked.id]?.content.state == ["status": "nearby"])
        #expect(second.host.activities[tracked.id]?.startedAt == stateT0)
        #expect(second.host.activities[tracked.id]?.contentTimestamp == stateT0 + .minutes(2))
        #expect(second.host.activityInfo(second.host.activities[tracked.id]!, at: second.now).pushBudget.used == 0)
        // The stale date passed while the daemon was down: the first deadline says so.
        try second.advance(to: stateT0 + .hours(5) + 1)
        #expect(second.state(stale.id) == .stale)
        // The push ledger and the ordering mark came back: an older push is still ignored.
        #expect(try second.push(tracked.pushToken!, "old", timestamp: stateT0 + .minutes(1)).ignoredReason == .outdatedTimestamp)
        // 8 hours from the stored start, not from the restart.
        try second.advance(to: stateT0 + .hours(8) - 1)
        #expect(second.state(tracked.id) == .active)
        try second.advance(to: stateT0 + .hours(8))
        let ended = try #require(second.host.activities[tracked.id])
        #expect(ended.state == .ended)
        #expect(ended.endedAt == stateT0 + .hours(8))
        #expect(ended.dismissAt == stateT0 + .hours(12))
        #expect(second.state(stale.id) == .ended)
        // A third start sees the ends that the second wrote.
        let third = try Session(directory: scratch.path, at: stateT0 + .hours(9))
        #expect(third.host.activities.all.map(\.state) == [.ended, .ended])
        #expect(third.host.activities[tracked.id]?.endedAt == stateT0 + .hours(8))
        let check = SQLiteStateStore.check(directory: scratch.path)
        #expect(check.text.contains("activities: all 2 activity records decode (2 ended)"), "\(check.text)")
    }

    @Test("The state check counts the activity tables and checks each record against its copies", .tags(.sqliteShell))
    func stateCheck() throws {
        let scratch = ScratchDirectory()
        var session = try Session(directory: scratch.path, at: stateT0)
        let tracked = try session.start()
        let other = try session.start()
        for minute in 1...3 {
            try session.advance(to: stateT0 + .minutes(Double(minute)))
            _ = try session.push(tracked.pushToken!, "step \(minute)", timestamp: session.now)
        }
        _ = try session.activity(.end(ActivityEndParams(id: other.id)))
        let path = scratch.stateFile

        let healthy = SQLiteStateStore.check(directory: scratch.path)
        #expect(healthy.healthy)
        #expect(
            healthy.text.contains("rows: host 1, widgets 0, ledger 0, activity_host 1, activities 2, activity_pushes 3"),
            "\(healthy.text)")
        #expect(healthy.text.contains("activities: all 2 activity records decode (1 active, 1 ended)"))
        #expect(healthy.text.contains("activity_pushes: the table matches every activity's push ledger"))

        // The copies drift: reported, but the records are what widgethostd reads, so still healthy.
        _ = try sqlite3(path, "DELETE FROM activity_pushes WHERE activity_id = 'a1' AND delivered_at LIKE '%00:02:00Z'")
        _ = try sqlite3(path, "UPDATE activities SET state = 'active' WHERE id = 'a2'")
        let drifted = SQLiteStateStore.check(directory: scratch.path)
        #expect(drifted.healthy)
        #expect(drifted.text.contains("activity_pushes 2"))
        #expect(drifted.text.contains("activity_pushes: the table differs from the push ledgers of a1"), "\(drifted.text)")
        #expect(drifted.text.contains("column differs from the record of a2"))

        // A record that does not decode is why widgethostd would refuse the file.
        _ = try sqlite3(path, "UPDATE activities SET record = '{\"id\":\"a2\"}' WHERE id = 'a2'")
        let broken = SQLiteStateStore.check(directory: scratch.path)
        #expect(!broken.healthy)
        #expect(broken.text.contains("activities.record of a2 does not decode"), "\(broken.text)")
        #expect(throws: StateError.self) { _ = try SQLiteStateStore(directory: scratch.path).load() }

        _ = try sqlite3(path, "UPDATE activity_host SET record = 'nonsense'")
        let host = SQLiteStateStore.check(directory: scratch.path)
        #expect(host.text.contains("activity_host.record does not decode"), "\(host.text)")
    }

    @Test("The state check of a schema-1 file says it has no activity tables yet", .tags(.sqliteShell))
    func schemaOne() throws {
        let scratch = ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        _ = try sqlite3(
            scratch.stateFile,
            """
            CREATE TABLE host (id INTEGER PRIMARY KEY CHECK (id = 1), boot_id TEXT, next_widget_number INTEGER NOT NULL,
                record TEXT NOT NULL, schema_notes TEXT NOT NULL);
            CREATE TABLE widgets (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, family TEXT NOT NULL, app TEXT NOT NULL,
                extension TEXT NOT NULL, added_at TEXT NOT NULL, record TEXT NOT NULL);
            CREATE TABLE ledger (widget_id TEXT NOT NULL, started_at TEXT NOT NULL);
            PRAGMA application_id = \(0x5764_6748);
            PRAGMA user_version = 1;
            """)
        let check = SQLiteStateStore.check(directory: scratch.path)
        #expect(check.healthy, "\(check.text)")
        #expect(check.text.contains("rows: host 0, widgets 0, ledger 0\n"))
        #expect(check.text.contains("activities: none yet (schema 1; widgethostd adds their tables when it opens the file)"))
    }
}

extension ActivityReply {
    fileprivate var ignoredReason: PushThrottleReason? {
        if case .push(let result) = self, result.outcome == .ignored { result.reason } else { nil }
    }
}
