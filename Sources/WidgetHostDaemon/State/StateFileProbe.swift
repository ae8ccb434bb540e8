import Foundation
import GRDB
import WidgetHostDriver

/// Looks at an existing state file without changing it, to decide whether the store may
/// open it for writing. Used before every open and by `--state-check`.
///
/// A normal read-write open is not safe on a file we are about to refuse: SQLite may
/// checkpoint a WAL into it on close, and a newer schema must never be migrated "down".
/// So the probe reads through a read-only connection: with no `-wal` beside the file, in
/// SQLite's immutable mode (which creates no `-wal` or `-shm` either); with a `-wal`, as a
/// plain read-only connection, which reads the transactions committed in the WAL (a kill -9
/// leaves them there) and never checkpoints.
enum StateFileProbe {
    /// Opens `path` read-only, as above. The caller checked that the file exists.
    static func open(_ path: String) throws(StateError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "widgethost.state.probe"
        let walExists = FileManager.default.fileExists(atPath: path + "-wal")
        let target = !walExists && uriFilenames ? immutableURI(path) : path
        do {
            return try DatabaseQueue(path: target, configuration: configuration)
        } catch {
            throw .unreadable(path: path, sqliteMessage: message(of: error))
        }
    }

    /// Refuses a file that widgethostd must not open for writing: empty, not SQLite,
    /// corrupt or truncated (`PRAGMA quick_check`), another program's database, or a newer
    /// schema. Changes nothing on disk.
    static func validate(_ path: String) throws(StateError) {
        if let size = fileSize(path), size == 0 {
            // The store creates a file under another name and renames it into place once its
            // schema is written, so an empty state file was emptied by something else.
            throw .unreadable(path: path, sqliteMessage: "the file is empty (0 bytes)")
        }
        let queue = try open(path)
        defer { ShortLivedDatabases.closeAndKeep(queue) }
        let facts: (version: Int, applicationID: Int32, quickCheck: [String])
        do {
            facts = try queue.read { db in
                (
                    try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                    try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                    try String.fetchAll(db, sql: "PRAGMA quick_check")
                )
            }
        } catch {
            throw .unreadable(path: path, sqliteMessage: message(of: error))
        }
        if facts.applicationID != StateSchema.applicationID {
            throw .unreadable(
                path: path,
                sqliteMessage: "PRAGMA application_id is \(facts.applicationID), not \(StateSchema.applicationID): "
                    + "an SQLite database, but not a widgethost state file")
        }
        if facts.version > StateSchema.version {
            throw .newerSchema(path: path, found: facts.version, supported: StateSchema.version)
        }
        if facts.quickCheck != ["ok"] {
            throw .unreadable(
                path: path, sqliteMessage: "PRAGMA quick_check: " + facts.quickCheck.prefix(3).joined(separator: "; "))
        }
    }

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    /// SQLite's own words and result code, without GRDB's framing.
    static func message(of error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        return "\(error.message ?? "SQLite error") (SQLite result code \(error.extendedResultCode.rawValue))"
    }

    /// `file:` URIs are honoured for plain paths only when SQLite was built with
    /// SQLITE_USE_URI (Debian's is); GRDB opens without SQLITE_OPEN_URI. Without it the
    /// probe falls back to a plain read-only open, which may leave an empty `-wal` and a
    /// `-shm` beside the file (never changing the file itself).
    static let uriFilenames: Bool = {
        guard let queue = try? DatabaseQueue() else { return false }
        defer { ShortLivedDatabases.closeAndKeep(queue) }
        let options = (try? queue.read { try String.fetchAll($0, sql: "PRAGMA compile_options") }) ?? []
        return options.contains("USE_URI")
    }()

    static func immutableURI(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute
        return "file:\(encoded)?mode=ro&immutable=1"
    }
}
