import Foundation
import GRDB
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol

/// What `widgethostd --state-check` prints: whether the daemon would start on the state
/// file, and why not.
public struct StateCheckReport: Sendable, Hashable, CustomStringConvertible {
    /// True when widgethostd would open the file (or there is none yet).
    public var healthy: Bool
    /// Lines for a person: the file, its schema version, SQLite's integrity check, row
    /// counts, whether every record (widgets and Live Activities) decodes and the ledger
    /// tables match them, and a verdict.
    public var text: String
    public var description: String { text }
}

extension SQLiteStateStore {
    /// Checks the state file in `directory` without changing it: `PRAGMA integrity_check`,
    /// the schema version, row counts, and whether every record decodes and the `ledger`
    /// table matches the records' ledgers.
    public static func check(directory: String) -> StateCheckReport {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(StateSchema.fileName).path
        var lines: [String] = []
        guard let size = StateFileProbe.fileSize(path) else {
            lines.append("state file: \(path) does not exist; widgethostd will create it with no widgets")
            return StateCheckReport(healthy: true, text: lines.joined(separator: "\n"))
        }
        var file = "state file: \(path) (\(size) bytes"
        if let wal = StateFileProbe.fileSize(path + "-wal") { file += "; -wal \(wal) bytes" }
        lines.append(file + ")")

        func verdict(_ problem: StateError?) -> StateCheckReport {
            if let problem {
                lines.append("verdict: widgethostd will refuse to start: \(problem)")
            } else {
                lines.append("verdict: healthy; widgethostd will start on it")
            }
            return StateCheckReport(healthy: problem == nil, text: lines.joined(separator: "\n"))
        }

        if size == 0 { return verdict(.unreadable(path: path, sqliteMessage: "the file is empty (0 bytes)")) }
        let queue: DatabaseQueue
        do { queue = try StateFileProbe.open(path) } catch { return verdict(error) }
        defer { try? queue.close() }
        do {
            return try queue.read { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                lines.append("schema version: \(version) (this widgethostd knows up to \(StateSchema.version))")
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                lines.append("integrity_check: " + integrity.prefix(10).joined(separator: "\n  "))
                if integrity != ["ok"] {
                    return verdict(
                        .unreadable(
                            path: path, sqliteMessage: "PRAGMA integrity_check: " + integrity.prefix(3).joined(separator: "; ")))
                }
                if applicationID != StateSchema.applicationID {
                    return verdict(
                        .unreadable(
                            path: path,
                            sqliteMessage: "PRAGMA application_id is \(applicationID), not \(StateSchema.applicationID): "
                                + "an SQLite database, but not a widgethost state file"))
                }
                if version > StateSchema.version {
                    return verdict(.newerSchema(path: path, found: version, supported: StateSchema.version))
                }
                return verdict(try checkRows(db, path: path, lines: &lines))
            }
        } catch {
            return verdict(.unreadable(path: path, sqliteMessage: StateFileProbe.message(of: error)))
        }
    }

    /// Row counts, and the records against their copies; the problem found, if any.
    private static func checkRows(_ db: Database, path: String, lines: inout [String]) throws -> StateError? {
        let count = { (table: String) in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        var rows = "rows: host \(try count("host")), widgets \(try count("widgets")), ledger \(try count("ledger"))"
        if version >= StateSchema.activitiesVersion {
            rows += ", activity_host \(try count("activity_host")), activities \(try count("activities")), "
                + "activity_pushes \(try count("activity_pushes"))"
        }
        lines.append(rows)

        var expected: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, record FROM widgets ORDER BY id") {
            let id: String = row["id"]
            let json: String = row["record"]
            do {
                let record = try WireCoding.decode(WidgetRecord.self, from: Data(json.utf8))
                expected[id] = record.ledger.map(RFC3339.format).sorted()
            } catch {
                return .unreadable(path: path, sqliteMessage: "widgets.record of \(id) does not decode: \(error)")
            }
        }
        if let json = try String.fetchOne(db, sql: "SELECT record FROM host WHERE id = 1") {
            do { _ = try WireCoding.decode(HostRecord.self, from: Data(json.utf8)) } catch {
                return .unreadable(path: path, sqliteMessage: "host.record does not decode: \(error)")
            }
        }
        lines.append("records: all \(expected.count) widget records decode")

        var stored: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT widget_id, started_at FROM ledger ORDER BY widget_id, started_at") {
            stored[row["widget_id"], default: []].append(row["started_at"])
        }
        let mismatched = Set(expected.keys).union(stored.keys).filter { (expected[$0] ?? []) != (stored[$0] ?? []) }
        if mismatched.isEmpty {
            lines.append("ledger: the ledger table matches every record's ledger")
        } else {
            // The records are what widgethostd reads; the table is a copy, rewritten on the next write.
            lines.append(
                "ledger: the ledger table differs from the records of " + mismatched.sorted().joined(separator: ", ")
                    + " (the records are what widgethostd reads; the table is rewritten when they next change)")
        }
        if version >= StateSchema.activitiesVersion {
            return try checkActivities(db, path: path, lines: &lines)
        }
        lines.append("activities: none yet (schema \(version); widgethostd adds their tables when it opens the file)")
        return nil
    }

    /// The Live Activity tables (migration 2): every record decodes, the columns copied from
    /// it agree, and `activity_pushes` matches each record's priority-10 push ledger.
    private static func checkActivities(_ db: Database, path: String, lines: inout [String]) throws -> StateError? {
        if let json = try String.fetchOne(db, sql: "SELECT record FROM activity_host WHERE id = 1") {
            do { _ = try WireCoding.decode(ActivityHostRecord.self, from: Data(json.utf8)) } catch {
                return .unreadable(path: path, sqliteMessage: "activity_host.record does not decode: \(error)")
            }
        }
        var expected: [String: [String]] = [:]
        var states: [String: Int] = [:]
        var columnsDiffer: [String] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, app, attributes_type, state, started_at, record FROM activities ORDER BY id") {
            let id: String = row["id"]
            let json: String = row["record"]
            let record: ActivityRecord
            do { record = try WireCoding.decode(ActivityRecord.self, from: Data(json.utf8)) } catch {
                return .unreadable(path: path, sqliteMessage: "activities.record of \(id) does not decode: \(error)")
            }
            expected[id] = record.pushLedger.map(RFC3339.format).sorted()
            states[record.state.rawValue, default: 0] += 1
            let columns: [String?] = [row["app"], row["attributes_type"], row["state"], row["started_at"]]
            if record.id != id
                || columns != [record.app, record.attributesType, record.state.rawValue, RFC3339.format(record.startedAt)]
            {
                columnsDiffer.append(id)
            }
        }
        let byState = ActivityStateName.allCases.compactMap { state in states[state.rawValue].map { "\($0) \(state.rawValue)" } }
        lines.append(
            "activities: all \(expected.count) activity records decode"
                + (byState.isEmpty ? "" : " (" + byState.joined(separator: ", ") + ")"))
        if !columnsDiffer.isEmpty {
            lines.append(
                "activities: the id, app, attributes_type, state or started_at column differs from the record of "
                    + columnsDiffer.joined(separator: ", ") + " (the records are what widgethostd reads; the columns are rewritten when they next change)")
        }
        var stored: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT activity_id, delivered_at FROM activity_pushes ORDER BY activity_id, delivered_at") {
            stored[row["activity_id"], default: []].append(row["delivered_at"])
        }
        let mismatched = Set(expected.keys).union(stored.keys).filter { (expected[$0] ?? []) != (stored[$0] ?? []) }
        if mismatched.isEmpty {
            lines.append("activity_pushes: the table matches every activity's push ledger")
        } else {
            lines.append(
                "activity_pushes: the table differs from the push ledgers of " + mismatched.sorted().joined(separator: ", ")
                    + " (the records are what widgethostd reads; the table is rewritten when they next change)")
        }
        return nil
    }
}
