import Foundation
import GRDB
import Synchronization
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// The daemon's `StateStore`: `widgethost.sqlite` in WAL mode under the state directory.
///
/// Durability: `synchronous = NORMAL`. In WAL mode a commit is a `write(2)` to the WAL, so a
/// committed transaction survives the daemon's death by any signal, kill -9 included; only
/// a power loss or kernel crash can take back the last transactions before a checkpoint
/// (at most about 1,000 pages), and even then the file stays consistent. Losing those would
/// give a few widgets their latest reloads back; FULL would pay an fsync on every core step,
/// including each recorded view, for that.
///
/// Opening never changes a file it refuses (`StateFileProbe`), and a new file is written
/// under another name and renamed into place once its schema is in, so that an empty or
/// half-made `widgethost.sqlite` is always someone else's doing and is refused, not reused.
public final class SQLiteStateStore: StateStore {
    /// The state file's path.
    public let path: String
    private let queue: DatabaseQueue
    /// The records' JSON, each field's bytes kept while it does not change.
    private let recordJSON = Mutex(RecordJSON())
    /// The last `added_at` text written (`addedAtText`).
    private let lastAddedAt = Mutex<(date: Date, text: String)?>(nil)
    /// Each step's statements, prepared once on the connection.
    private let statements = StoreStatements()

    /// Opens the state in `directory`, creating the directory (mode 0700) and an empty state
    /// file if missing. Refuses, without changing it, a file from a newer schema
    /// (`.newerSchema`) or one that is not readable widgethost state (`.unreadable`).
    public init(directory: String) throws(StateError) {
        try Self.makeDirectory(directory)
        let path = URL(fileURLWithPath: directory).appendingPathComponent(StateSchema.fileName).path
        if !FileManager.default.fileExists(atPath: path) {
            try Self.create(path)
        }
        try StateFileProbe.validate(path)
        do {
            queue = try DatabaseQueue(path: path, configuration: Self.configuration)
            try queue.writeWithoutTransaction { db in
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                }
                try StateSchema.migrate(db)
            }
        } catch {
            throw .unreadable(path: path, sqliteMessage: StateFileProbe.message(of: error))
        }
        self.path = path
    }

    deinit {
        // The statements first: a connection closes cleanly only without them.
        queue.writeWithoutTransaction { _ in statements.finalize() }
    }

    /// Reads everything in one read transaction, decoding each record as its row comes
    /// (no array of all rows or of all JSON texts beside the records), in id order so that
    /// nothing is sorted afterwards, and then gives SQLite's page cache back: the scan filled
    /// it with leaf pages that the steps to come mostly do not read again.
    public func load() throws(StateError) -> PersistedState? {
        let loaded: Result<PersistedState?, StateError>
        do {
            loaded = try queue.read { db in try Self.load(db, path: path) }
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA shrink_memory")
                if case .success(let state) = loaded {
                    statements.knowLedgerRows(
                        of: Set((state?.widgets ?? []).lazy.filter { !$0.ledger.isEmpty }.map(\.info.id)))
                }
            }
        } catch {
            throw .unreadable(path: path, sqliteMessage: StateFileProbe.message(of: error))
        }
        return try loaded.get()
    }

    private static func load(_ db: Database, path: String) throws -> Result<PersistedState?, StateError> {
        func decode<T: Decodable>(_ type: T.Type, _ json: String, _ what: @autoclosure () -> String) -> Result<T, StateError> {
            do { return .success(try WireCoding.decode(type, from: Data(json.utf8))) } catch {
                return .failure(.unreadable(path: path, sqliteMessage: "\(what()) does not decode: \(error)"))
            }
        }
        var host: HostRecord?
        if let json = try String.fetchOne(db, sql: "SELECT record FROM host WHERE id = 1") {
            switch decode(HostRecord.self, json, "host.record") {
            case .success(let record): host = record
            case .failure(let error): return .failure(error)
            }
        }
        var widgets: [WidgetRecord] = []
        widgets.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM widgets") ?? 0)
        // `w2` before `w10`, as `WidgetID` orders them; other ids are sorted below if they come out of order.
        let rows = try Row.fetchCursor(db, sql: "SELECT id, record FROM widgets ORDER BY length(id), id")
        while let row = try rows.next() {
            switch decode(WidgetRecord.self, row[1], "widgets.record of \(row[0] as String)") {
            case .success(let record): widgets.append(record)
            case .failure(let error): return .failure(error)
            }
        }
        if !widgets.isSortedByID { widgets.sort { $0.id < $1.id } }
        var activityHost: ActivityHostRecord?
        if let json = try String.fetchOne(db, sql: "SELECT record FROM activity_host WHERE id = 1") {
            switch decode(ActivityHostRecord.self, json, "activity_host.record") {
            case .success(let record): activityHost = record
            case .failure(let error): return .failure(error)
            }
        }
        var activities: [ActivityRecord] = []
        let activityRows = try Row.fetchCursor(db, sql: "SELECT id, record FROM activities")
        while let row = try activityRows.next() {
            switch decode(ActivityRecord.self, row[1], "activities.record of \(row[0] as String)") {
            case .success(let record): activities.append(record)
            case .failure(let error): return .failure(error)
            }
        }
        if host == nil && widgets.isEmpty && activityHost == nil { return .success(nil) }
        return .success(
            PersistedState(
                host: host ?? HostRecord(), widgets: widgets,
                activities: ActivityBook(host: activityHost ?? ActivityHostRecord(), activities: activities)))
    }

    public func write(
        host: HostRecord?, changed: [WidgetRecord], removed: [WidgetID], activities: ActivityChanges
    ) throws(StateError) {
        // Encode first, so that the transaction only runs SQL.
        let hostJSON = try host.map { record throws(StateError) in try Self.json(record, of: "host") }
        // Beside `changed`, index for index: tuples holding a copy of each record cost
        // ~1,500 instructions a write (issue 16, callgrind).
        var rows = WidgetRows(records: changed)
        for index in changed.indices {
            rows.json.append(try json(of: changed[index]))
            if let values = changed[index].info.configuration {
                rows.configuration.append(try Self.json(values, of: changed[index].id.rawValue))
            } else {
                rows.configuration.append(nil)
            }
        }
        let activityHostJSON = try activities.host.map { record throws(StateError) in
            try Self.json(record, of: "activity_host")
        }
        let activityRows = try activities.changed.map { record throws(StateError) in
            (record: record, json: try Self.json(record, of: record.id))
        }
        if !removed.isEmpty { recordJSON.withLock { memo in for id in removed { memo.forget(id.rawValue) } } }
        do {
            try queue.writeWithoutTransaction { db in
                try statements.prepare(db)
                try statements.beginTransaction()
                do {
                    try writeRows(db, host: host, hostJSON: hostJSON, rows: rows, removed: removed)
                    try Self.writeActivities(
                        db, host: activities.host, hostJSON: activityHostJSON, rows: activityRows, removed: activities.removed)
                    try statements.commitTransaction()
                } catch {
                    statements.rollbackTransaction()
                    throw error
                }
                statements.committed(changed: changed, removed: removed)
            }
        } catch {
            throw .writeFailed(path: path, sqliteMessage: StateFileProbe.message(of: error))
        }
    }

    /// The host record, the changed widgets with their ledger rows, the removed widgets.
    private func writeRows(
        _ db: Database, host: HostRecord?, hostJSON: String?,
        rows: WidgetRows, removed: [WidgetID]
    ) throws {
        if let host, let hostJSON {
            try db.cachedStatement(
                sql: """
                    INSERT INTO host (id, boot_id, next_widget_number, record, schema_notes)
                    VALUES (1, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET boot_id = excluded.boot_id,
                        next_widget_number = excluded.next_widget_number, record = excluded.record,
                        schema_notes = excluded.schema_notes
                    """
            ).execute(arguments: [host.bootID, host.nextWidgetNumber, hostJSON, StateSchema.notes])
        }
        // Each field read where it is: binding the record copied it (~900 instructions).
        try rows.records.withUnsafeBufferPointer { records in
            for index in records.indices {
                try statements.upsertWidget(
                    id: records[index].info.id, kind: records[index].info.kind,
                    family: records[index].info.family.rawValue, app: records[index].info.app,
                    extension: records[index].info.extension, addedAt: addedAtText(records[index].addedAt),
                    record: rows.json[index], configuration: rows.configuration[index])
                try statements.writeLedger(records[index].info.id, records[index].ledger, format: RFC3339.format)
            }
        }
        if !removed.isEmpty {
            let remove = try db.cachedStatement(sql: "DELETE FROM widgets WHERE id = ?")
            for id in removed {
                try statements.clearLedger(of: id.rawValue)
                try remove.execute(arguments: [id.rawValue])
            }
        }
    }

    /// `added_at`'s text: a widget's never changes, and a reload writes the same widget
    /// twice, so the last one made is kept (RFC3339.format was ~800 instructions a write).
    private func addedAtText(_ date: Date) -> String {
        lastAddedAt.withLock { last in
            if let last, last.date == date { return last.text }
            let text = RFC3339.format(date)
            last = (date, text)
            return text
        }
    }

    /// The changed widgets' records and, index for index, their JSON and configuration's.
    private struct WidgetRows {
        let records: [WidgetRecord]
        var json: [[UInt8]] = []
        var configuration: [String?] = []

        init(records: [WidgetRecord]) {
            self.records = records
            json.reserveCapacity(records.count)
            configuration.reserveCapacity(records.count)
        }
    }

    private func json(of record: WidgetRecord) throws(StateError) -> [UInt8] {
        let encoded = recordJSON.withLock { memo in Result { try memo.encode(record) } }
        switch encoded {
        case .success(let bytes): return bytes
        case .failure(let error): throw .unencodable(widget: record.id.rawValue, reason: "\(error)")
        }
    }

    private static func writeActivities(
        _ db: Database, host: ActivityHostRecord?, hostJSON: String?, rows: [(record: ActivityRecord, json: String)],
        removed: [String]
    ) throws {
        // A widget's step changes no activity: nothing to look up. Fetching the three cached
        // statements cost 4,600 instructions a transaction, twice a reload (issue 16, callgrind).
        if host == nil, rows.isEmpty, removed.isEmpty { return }
        if let host, let hostJSON {
            try db.cachedStatement(
                sql: """
                    INSERT INTO activity_host (id, next_activity_number, record) VALUES (1, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET next_activity_number = excluded.next_activity_number,
                        record = excluded.record
                    """
            ).execute(arguments: [host.nextActivityNumber, hostJSON])
        }
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO activities (id, app, attributes_type, state, started_at, record) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET app = excluded.app, attributes_type = excluded.attributes_type,
                    state = excluded.state, started_at = excluded.started_at, record = excluded.record
                """)
        let clearPushes = try db.cachedStatement(sql: "DELETE FROM activity_pushes WHERE activity_id = ?")
        let addPush = try db.cachedStatement(sql: "INSERT INTO activity_pushes (activity_id, delivered_at) VALUES (?, ?)")
        for (record, json) in rows {
            try upsert.execute(arguments: [
                record.id, record.app, record.attributesType, record.state.rawValue, RFC3339.format(record.startedAt), json,
            ])
            try clearPushes.execute(arguments: [record.id])
            for delivered in record.pushLedger { try addPush.execute(arguments: [record.id, RFC3339.format(delivered)]) }
        }
        let remove = try db.cachedStatement(sql: "DELETE FROM activities WHERE id = ?")
        for id in removed {
            try clearPushes.execute(arguments: [id])
            try remove.execute(arguments: [id])
        }
    }

    // MARK: - Opening

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.label = "widgethost.state"
        // A user's `sqlite3` holding a write lock for a moment should not fail a step.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    private static func makeDirectory(_ directory: String) throws(StateError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .directory(path: directory, reason: "it exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .directory(path: directory, reason: "could not create it: \(error.localizedDescription)")
        }
    }

    /// Writes the schema into `path.creating`, checkpoints and closes it, then renames it to
    /// `path` and syncs the directory.
    private static func create(_ path: String) throws(StateError) {
        let scratch = path + ".creating"
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: scratch + suffix)
        }
        do {
            let queue = try DatabaseQueue(path: scratch, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try StateSchema.migrate(db)
            }
            try queue.close()  // checkpoints the WAL into the file and removes it
            ShortLivedDatabases.closeAndKeep(queue)
        } catch {
            throw .writeFailed(path: scratch, sqliteMessage: StateFileProbe.message(of: error))
        }
        guard rename(scratch, path) == 0 else {
            throw .writeFailed(path: path, sqliteMessage: "rename from \(scratch) failed: \(String(cString: strerror(errno)))")
        }
        let directory = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    private static func json(_ value: some Encodable, of widget: String) throws(StateError) -> String {
        do { return String(decoding: try WireCoding.encodeBytes(value), as: UTF8.self) } catch {
            throw .unencodable(widget: widget, reason: "\(error)")
        }
    }
}
