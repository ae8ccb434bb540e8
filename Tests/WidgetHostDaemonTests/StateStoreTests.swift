import Foundation
import Testing
@testable import WidgetHostCore
import WidgetHostDaemon
import WidgetHostDriver
import WidgetHostProtocol

@Suite("State store")
struct StateStoreTests {
    // MARK: - Round trips

    @Test("A fresh state directory is created with mode 0700 and loads as nothing")
    func freshDirectory() throws {
        let scratch = ScratchDirectory()
        let directory = scratch.sub("state/nested")
        let store = try SQLiteStateStore(directory: directory)
        #expect(try store.load() == nil)
        #expect(store.path == directory + "/widgethost.sqlite")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        #expect(!listing(directory).contains("widgethost.sqlite.creating"))
    }

    @Test("The host and widget records come back equal after the store is reopened")
    func roundTrip() throws {
        let scratch = ScratchDirectory()
        let records = [richRecord(1), richRecord(2), richRecord(3, kind: "BirthdayLockScreenWidget")]
        do {
            let store = try SQLiteStateStore(directory: scratch.path)
            try store.write(host: hostRecord(), changed: records, removed: [])
        }
        let loaded = try #require(try SQLiteStateStore(directory: scratch.path).load())
        #expect(loaded.host == hostRecord())
        #expect(loaded.widgets == records)
    }

    @Test("Widget ids sort as the core sorts them, w2 before w10")
    func order() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        try store.write(host: hostRecord(), changed: [richRecord(10), richRecord(2), richRecord(1)], removed: [])
        #expect(try store.load()?.widgets.map(\.id) == ["w1", "w2", "w10"])
    }

    @Test("Ids that SQL's order by length and text gets wrong still load in the core's order")
    func orderOfOddIDs() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        // w010 and w10 have the same number, so the text decides: w010 first; SQL puts it after.
        let ids = ["w10", "w0100", "w9", "w010", "w2"]
        let records = ids.map { id in
            var record = richRecord(1)
            record.info.id = id
            return record
        }
        try store.write(host: hostRecord(), changed: records, removed: [])
        let loaded = try #require(try store.load()).widgets.map(\.id)
        #expect(loaded == ["w2", "w9", "w010", "w10", "w0100"])
    }

    @Test("A write replaces changed records, leaves the others, and removes removed ones with their ledger rows")
    func updateAndRemove() throws {
        let scratch = ScratchDirectory()
        do {
            let store = try SQLiteStateStore(directory: scratch.path)
            try store.write(host: hostRecord(), changed: [richRecord(1), richRecord(2), richRecord(3)], removed: [])
            var changed = richRecord(2)
            changed.ledger.append(stateT0 + .days(1))
            changed.pending = nil
            try store.write(host: nil, changed: [changed], removed: ["w3"])
        }
        let store = try SQLiteStateStore(directory: scratch.path)
        let loaded = try #require(try store.load())
        var expected = richRecord(2)
        expected.ledger.append(stateT0 + .days(1))
        expected.pending = nil
        #expect(loaded.host == hostRecord())
        #expect(loaded.widgets == [richRecord(1), expected])
    }

    @Test("A write with only the host record, and one of nothing, are stored")
    func hostOnly() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        try store.write(host: nil, changed: [], removed: [])
        #expect(try store.load() == nil)
        try store.write(host: hostRecord(boot: "boot-2", next: 9), changed: [], removed: [])
        #expect(try store.load() == PersistedState(host: hostRecord(boot: "boot-2", next: 9), widgets: []))
    }

    @Test("A write that fails midway stores nothing of it: the previous state stays")
    func oneTransactionPerWrite() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        try store.write(host: hostRecord(), changed: [richRecord(1), richRecord(2)], removed: [])
        let before = try store.load()

        // The host row and two widget rows (with their ledger rows) are written before the
        // third record breaks the `widgets.id <> ''` constraint.
        var changed = richRecord(1)
        changed.ledger = []
        var broken = richRecord(5)
        broken.info.id = ""
        #expect {
            try store.write(host: hostRecord(next: 99), changed: [changed, richRecord(4), broken], removed: ["w2"])
        } throws: { error in
            guard case .writeFailed(let path, let message) = error as? StateError else { return false }
            return path == scratch.stateFile && message.contains("CHECK constraint failed")
        }
        #expect(try store.load() == before)
        #expect(try SQLiteStateStore(directory: scratch.path).load() == before)
    }

    @Test("A record that cannot be encoded fails the write before anything is stored")
    func unencodable() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        try store.write(host: hostRecord(), changed: [richRecord(1)], removed: [])
        var record = richRecord(2)
        record.placeholder = TimelineEntryPayload(date: stateT0, content: .number(.nan))
        #expect(throws: StateError.self) {
            try store.write(host: hostRecord(next: 7), changed: [record], removed: ["w1"])
        }
        #expect(try store.load() == PersistedState(host: hostRecord(), widgets: [richRecord(1)]))
    }

    // MARK: - Durability

    @Test("The files as a kill -9 leaves them, WAL included, hold every committed write")
    func crashImage() throws {
        let scratch = ScratchDirectory()
        let crashed = scratch.sub("crashed")
        let store = try SQLiteStateStore(directory: scratch.sub("live"))
        try store.write(host: hostRecord(), changed: [richRecord(1), richRecord(2)], removed: [])
        try store.write(host: nil, changed: [richRecord(3)], removed: ["w1"])
        // While the store is open, its last commits are in the WAL, not the file: copying both
        // now gives what the disk holds after the process dies without closing.
        #expect(FileManager.default.fileExists(atPath: store.path + "-wal"))
        try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: crashed + "/widgethost.sqlite" + suffix)
        }
        let recovered = try SQLiteStateStore(directory: crashed).load()
        #expect(recovered == PersistedState(host: hostRecord(), widgets: [richRecord(2), richRecord(3)]))
    }

    @Test(
        "A transaction committed at synchronous = NORMAL survives its process being killed with SIGKILL",
        .tags(.sqliteShell))
    func killedWriter() throws {
        let scratch = ScratchDirectory()
        try makeStateFile(in: scratch.path, records: [richRecord(1)])
        // sqlite3 plays the daemon: it writes a step as the store does, commits, and is
        // SIGKILLed before it can close (and so checkpoint) the WAL.
        let record = richRecord(2)
        let json = String(decoding: try WireCoding.encode(record), as: UTF8.self)
            .replacingOccurrences(of: "'", with: "''")
        let ledger = record.ledger.map { "INSERT INTO ledger VALUES ('w2', '\(RFC3339.format($0))');" }
        let run = try runSQLite3(
            scratch.stateFile,
            """
            PRAGMA synchronous = NORMAL;
            BEGIN;
            INSERT INTO widgets (id, kind, family, app, extension, added_at, record) VALUES ('w2', 'BirthdayHomeWidget', 'systemMedium', 'com.birthdayreminders',
                'com.birthdayreminders.widget', '\(RFC3339.format(record.addedAt))', '\(json)');
            \(ledger.joined(separator: "\n"))
            COMMIT;
            .shell kill -9 $PPID
            SELECT 'still alive';
            """)
        #expect(run.reason == .uncaughtSignal && run.status == SIGKILL)
        #expect(run.output.isEmpty)
        #expect((bytes(scratch.stateFile + "-wal")?.count ?? 0) > 0)

        let store = try SQLiteStateStore(directory: scratch.path)
        #expect(try store.load() == PersistedState(host: hostRecord(), widgets: [richRecord(1), record]))
        #expect(try sqlite3(store.path, "SELECT count(*) FROM ledger WHERE widget_id = 'w2'") == "2")
    }

    @Test("A commit is visible to a second connection opened while the first is still open (WAL)")
    func secondConnection() throws {
        let scratch = ScratchDirectory()
        let first = try SQLiteStateStore(directory: scratch.path)
        try first.write(host: hostRecord(), changed: [richRecord(1)], removed: [])
        let second = try SQLiteStateStore(directory: scratch.path)
        #expect(try second.load() == PersistedState(host: hostRecord(), widgets: [richRecord(1)]))
        try first.write(host: nil, changed: [richRecord(2)], removed: [])
        #expect(try second.load()?.widgets.map(\.id) == ["w1", "w2"])
        try second.write(host: nil, changed: [], removed: ["w1"])
        #expect(try first.load()?.widgets.map(\.id) == ["w2"])
    }

    @Test("sqlite3 reads the tables while the daemon's connection is open", .tags(.sqliteShell))
    func readableWithSQLite3() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        try store.write(host: hostRecord(), changed: [richRecord(1), richRecord(2), richRecord(3)], removed: [])
        let path = store.path
        #expect(try sqlite3(path, "PRAGMA journal_mode") == "wal")
        #expect(try sqlite3(path, "PRAGMA user_version") == "3")
        #expect(try sqlite3(path, "SELECT count(*) FROM ledger") == "6")
        #expect(
            try sqlite3(path, "SELECT started_at FROM ledger WHERE widget_id = 'w2' ORDER BY started_at")
                == "2026-02-15T02:00:00Z\n2026-02-15T02:15:00Z")
        #expect(
            try sqlite3(path, "SELECT id, kind, family, added_at FROM widgets ORDER BY id")
                == """
                w1|BirthdayHomeWidget|accessoryInline|2026-02-15T01:00:00Z
                w2|BirthdayHomeWidget|systemMedium|2026-02-15T02:00:00Z
                w3|BirthdayHomeWidget|accessoryInline|2026-02-15T03:00:00Z
                """)
        #expect(try sqlite3(path, "SELECT boot_id, next_widget_number FROM host") == "8a1c7e2e-7b0f-4c55-9d0c-2f5d5b3e9a41|4")
        #expect(try sqlite3(path, "SELECT json_extract(record, '$.pending.deferredBy') FROM widgets WHERE id = 'w1'") == "minInterval")
        try store.write(host: nil, changed: [], removed: ["w3"])
        #expect(try sqlite3(path, "SELECT count(*) FROM ledger") == "3")
    }

    // MARK: - Refusals

    enum Residue: String, CaseIterable, CustomTestStringConvertible {
        case checkpointed, inTheWAL
        var testDescription: String { rawValue }
    }

    @Test(
        "A state file from a newer schema is refused, named, and left byte-for-byte unchanged",
        .tags(.sqliteShell), arguments: Residue.allCases)
    func newerSchema(residue: Residue) throws {
        let scratch = ScratchDirectory()
        try makeStateFile(in: scratch.path)
        switch residue {
        case .checkpointed:
            _ = try sqlite3(scratch.stateFile, "PRAGMA user_version = 7")
        case .inTheWAL:
            // A newer widgethost migrated and was killed before any checkpoint: the new
            // version is only in the WAL.
            try FileManager.default.moveItem(atPath: scratch.stateFile, toPath: scratch.sub("origin.sqlite"))
            let origin = scratch.sub("origin.sqlite")
            _ = try sqlite3(
                origin,
                "PRAGMA wal_autocheckpoint = 0;\nPRAGMA user_version = 7;\n"
                    + ".shell cp \(origin) \(scratch.stateFile) && cp \(origin)-wal \(scratch.stateFile)-wal")
            try FileManager.default.removeItem(atPath: origin)
            #expect(bytes(scratch.stateFile + "-wal")?.isEmpty == false)
        }
        let before = (file: bytes(scratch.stateFile), wal: bytes(scratch.stateFile + "-wal"))

        #expect {
            _ = try SQLiteStateStore(directory: scratch.path)
        } throws: { error in
            guard let error = error as? StateError else { return false }
            let text = error.description
            return error == .newerSchema(path: scratch.stateFile, found: 7, supported: 3)
                && text.contains("Upgrade widgethost")
                && text.contains("mkdir \(scratch.path)/widgethost.newer && mv \(scratch.stateFile)* \(scratch.path)/widgethost.newer/")
        }
        #expect(bytes(scratch.stateFile) == before.file)
        #expect(bytes(scratch.stateFile + "-wal") == before.wal)
        if residue == .checkpointed { #expect(listing(scratch.path) == ["widgethost.sqlite"]) }
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncatedToHalf, truncatedToFirstPage, truncatedInHeader, garbage, text
        var testDescription: String { rawValue }

        func apply(to file: Data) -> Data {
            switch self {
            case .truncatedToHalf: file.prefix(file.count / 2)
            case .truncatedToFirstPage: file.prefix(4096)
            case .truncatedInHeader: file.prefix(50)
            case .garbage:
                // A fixed pseudo-random sequence (xorshift), the same every run.
                Data(
                    sequence(state: UInt64(0x9E37_79B9_7F4A_7C15)) { state -> UInt8? in
                        state ^= state << 13
                        state ^= state >> 7
                        state ^= state << 17
                        return UInt8(truncatingIfNeeded: state)
                    }.prefix(file.count))
            case .text: Data("widgets: w1, w2\nthis is not a database\n".utf8)
            }
        }

        var sqliteMessage: String {
            switch self {
            case .truncatedToHalf, .truncatedToFirstPage, .truncatedInHeader: "database disk image is malformed"
            case .garbage, .text: "file is not a database"
            }
        }
    }

    @Test("A damaged state file is refused with its path and SQLite's message, and left byte-for-byte unchanged",
        arguments: Damage.allCases)
    func damaged(damage: Damage) throws {
        let scratch = ScratchDirectory()
        try makeStateFile(in: scratch.path, records: (1...12).map { richRecord($0) })
        let damaged = damage.apply(to: try #require(bytes(scratch.stateFile)))
        try damaged.write(to: URL(fileURLWithPath: scratch.stateFile))

        #expect {
            _ = try SQLiteStateStore(directory: scratch.path)
        } throws: { error in
            guard let error = error as? StateError, case .unreadable(let path, let message) = error else { return false }
            let text = error.description
            return path == scratch.stateFile && message.contains(damage.sqliteMessage)
                && text.hasPrefix(scratch.stateFile + ": not readable as widgethost state: ")
                && text.contains("widgethostd --state-check")
                && text.contains("mkdir \(scratch.path)/widgethost.broken && mv \(scratch.stateFile)* \(scratch.path)/widgethost.broken/")
        }
        #expect(bytes(scratch.stateFile) == damaged)
        #expect(listing(scratch.path) == ["widgethost.sqlite"])

        let check = SQLiteStateStore.check(directory: scratch.path)
        #expect(!check.healthy)
        #expect(check.text.contains(damage.sqliteMessage))
        #expect(bytes(scratch.stateFile) == damaged)
        #expect(listing(scratch.path) == ["widgethost.sqlite"])
    }

    @Test("An empty state file is refused, not taken for a fresh one")
    func emptyFile() throws {
        let scratch = ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: scratch.stateFile, contents: Data())
        #expect(throws: StateError.unreadable(path: scratch.stateFile, sqliteMessage: "the file is empty (0 bytes)")) {
            _ = try SQLiteStateStore(directory: scratch.path)
        }
        #expect(bytes(scratch.stateFile) == Data())
    }

    @Test("Another program's SQLite database is refused and left unchanged", .tags(.sqliteShell))
    func foreignDatabase() throws {
        let scratch = ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        _ = try sqlite3(scratch.stateFile, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
        let before = bytes(scratch.stateFile)
        #expect {
            _ = try SQLiteStateStore(directory: scratch.path)
        } throws: { error in
            guard case .unreadable(_, let message) = error as? StateError else { return false }
            return message.contains("not a widgethost state file")
        }
        #expect(bytes(scratch.stateFile) == before)
    }

    @Test("A state directory path that is a file is refused")
    func directoryIsAFile() throws {
        let scratch = ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: scratch.sub("file"), contents: Data("x".utf8))
        #expect(throws: StateError.directory(path: scratch.sub("file"), reason: "it exists and is not a directory")) {
            _ = try SQLiteStateStore(directory: scratch.sub("file"))
        }
    }

    // MARK: - --state-check

    @Test("The state check reports a healthy file's version, integrity and row counts without changing it")
    func checkHealthy() throws {
        let scratch = ScratchDirectory()
        #expect(SQLiteStateStore.check(directory: scratch.path).healthy)
        try makeStateFile(in: scratch.path)
        let before = bytes(scratch.stateFile)
        let check = SQLiteStateStore.check(directory: scratch.path)
        #expect(check.healthy)
        #expect(check.text.contains("schema version: 3 (this widgethostd knows up to 3)"))
        #expect(check.text.contains("integrity_check: ok"))
        #expect(check.text.contains("rows: host 1, widgets 2, ledger 3"))
        #expect(check.text.contains("the ledger table matches every record's ledger"))
        #expect(check.text.hasSuffix("verdict: healthy; widgethostd will start on it"))
        #expect(bytes(scratch.stateFile) == before)
        #expect(listing(scratch.path) == ["widgethost.sqlite"])
    }

    @Test("The state check reports a newer schema with the way out", .tags(.sqliteShell))
    func checkNewer() throws {
        let scratch = ScratchDirectory()
        try makeStateFile(in: scratch.path)
        _ = try sqlite3(scratch.stateFile, "PRAGMA user_version = 9")
        let check = SQLiteStateStore.check(directory: scratch.path)
        #expect(!check.healthy)
        #expect(check.text.contains("schema version: 9 (this widgethostd knows up to 3)"))
        #expect(check.text.contains("Upgrade widgethost"))
    }

    // MARK: - With the core

    @Test("Writing each step's persist effect keeps the store equal to the core's records")
    func persistEffects() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        var driver = CoreDriver(store: store)
        try driver.handle(.hostStarted(bootID: "boot-1"))
        try driver.handle(.catalogChanged([stateExtension]))
        let first = try driver.add()
        let second = try driver.add()
        let third = try driver.add()
        for minutes in stride(from: 10.0, through: 180, by: 10) {
            driver.now = stateT0 + .minutes(minutes)
            try driver.handle(.reloadRequested(ReloadRequest(.kind("BirthdayHomeWidget", app: nil))))
            try driver.handle(.viewRecorded(first))
        }
        try driver.handle(.widgetRemoved(second))
        driver.holdReplies = true
        driver.now = stateT0 + .hours(5)
        try driver.handle(.reloadRequested(ReloadRequest(.widget(third), origin: .foreground)))
        #expect(driver.host.record(of: third)?.running != nil)
        #expect(driver.writes > 20)

        let loaded = try #require(try SQLiteStateStore(directory: scratch.path).load())
        #expect(loaded.host == driver.host.host)
        #expect(loaded.widgets.map(\.id) == [first, third])
        #expect(try json(loaded.widgets) == json(driver.host.allRecords))
        #expect(loaded.widgets.allSatisfy { !$0.ledger.isEmpty })
    }

    // MARK: - In memory

    @Test("The in-memory store keeps the same contract")
    func inMemory() throws {
        let store = InMemoryStateStore()
        #expect(try store.load() == nil)
        try store.write(host: hostRecord(), changed: [richRecord(2), richRecord(1)], removed: [])
        try store.write(host: nil, changed: [richRecord(3)], removed: ["w2"])
        #expect(try store.load() == PersistedState(host: hostRecord(), widgets: [richRecord(1), richRecord(3)]))
        #expect(store.writeCount == 2)
        let failure = StateError.writeFailed(path: "memory", sqliteMessage: "disk I/O error")
        store.failWrites(with: failure)
        #expect(throws: failure) { try store.write(host: nil, changed: [], removed: ["w1"]) }
        store.failWrites(with: nil)
        #expect(try store.load()?.widgets.count == 2)
        #expect(try InMemoryStateStore(store.load()).load() == store.load())
    }
}

// MARK: - Support

private let stateExtension = ExtensionDescriptor(
    id: "com.birthdayreminders.widget",
    widgets: [
        WidgetDescriptor(
            kind: "BirthdayHomeWidget", displayName: "Birthdays", description: "Upcoming birthdays",
            supportedFamilies: [.systemSmall])
    ])

private func json(_ records: [WidgetRecord]) throws -> String {
    String(decoding: try WireCoding.encode(records), as: UTF8.self)
}

/// Feeds the core as the daemon does, writing each step's `persist` effect to the store and
/// answering timeline requests at once (or holding them, leaving the reload running).
private struct CoreDriver {
    var host = WidgetHost()
    let store: any StateStore
    var now = stateT0
    var holdReplies = false
    var writes = 0

    init(store: any StateStore) { self.store = store }

    mutating func handle(_ event: HostEvent) throws {
        let step = host.handle(event, at: now)
        try execute(step)
    }

    mutating func add() throws -> WidgetID {
        let step = host.handle(.widgetAdded(AddWidgetRequest(kind: "BirthdayHomeWidget", family: .systemSmall)), at: now)
        try execute(step)
        guard case .widgetAdded(let result)? = step.reply else { throw StateError.unencodable(widget: "?", reason: "") }
        return WidgetID(result.widget.id)
    }

    private mutating func execute(_ step: HostStep) throws {
        for effect in step.effects {
            switch effect {
            case .persist(let scope):
                try store.write(scope, from: host)
                writes += 1
            case .send(let request) where !holdReplies:
                let reply: ExtensionReply
                switch request.call {
                case .timeline(let params):
                    reply = .timeline(
                        TimelinePayload(
                            entries: [TimelineEntryPayload(date: params.now, content: .string("hello"))],
                            policy: .after(params.now + .hours(1))),
                        byteCount: 100)
                case .placeholder, .snapshot:
                    reply = .entry(TimelineEntryPayload(date: now, content: .string("placeholder")))
                case .perform: reply = .performed(IntentPerformResult())
                case .options: reply = .options(IntentOptionsResult(options: []))
                case .controlValue: reply = .controlValue(ControlValueResult())
                case .activityRender: reply = .activityViews(.null, byteCount: 0)
                }
                try execute(host.handle(.extensionReplied(request.id, reply, footprintBytes: 1_000_000), at: now))
            default:
                break
            }
        }
    }
}
