import GRDB

/// The state file's schema: its version lives in `PRAGMA user_version`, its owner in
/// `PRAGMA application_id`, and each migration takes it one version up in one transaction.
///
/// `widgets.record` (and `host.record`) hold the core's records as JSON and are what
/// `load()` reads; the other columns and the `ledger` table are copies kept in the same
/// transaction, so that a user can answer "why is this budget used?" with `sqlite3`:
///
///     sqlite3 /var/lib/widgethost/widgethost.sqlite \
///       "SELECT widget_id, started_at FROM ledger ORDER BY started_at"
///
/// To change the schema, append a migration; never edit one that has shipped.
enum StateSchema {
    static let fileName = "widgethost.sqlite"

    /// `PRAGMA application_id`: "WdgH". Tells a widgethost state file from another
    /// program's database, so that the store never migrates (writes to) one.
    static let applicationID: Int32 = 0x5764_6748

    static var version: Int { migrations.count }

    /// The version that added the Live Activity tables (migration 2).
    static let activitiesVersion = 2

    static let notes = """
        widgets.record is the full WidgetRecord as JSON and host.record the HostRecord; they are \
        what widgethostd reads. The other columns and the ledger table (start times of budgeted \
        reloads in the 24-hour window) are copies for reading with sqlite3, written in the same \
        transaction; widgets.configuration is a configurable widget's intent values as JSON. \
        activities.record is each Live Activity as JSON (activity_host.record their \
        counter and push-to-start ledgers); activity_pushes copies the priority-10 push ledgers. \
        Dates are RFC 3339, UTC. Schema version: PRAGMA user_version.
        """

    /// Migration n (1-based) takes the schema from version n − 1 to n.
    static let migrations: [String] = [
        """
        CREATE TABLE host (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            boot_id TEXT,
            next_widget_number INTEGER NOT NULL,
            record TEXT NOT NULL,
            schema_notes TEXT NOT NULL
        );
        CREATE TABLE widgets (
            id TEXT PRIMARY KEY NOT NULL CHECK (id <> ''),
            kind TEXT NOT NULL,
            family TEXT NOT NULL,
            app TEXT NOT NULL,
            extension TEXT NOT NULL,
            added_at TEXT NOT NULL,
            record TEXT NOT NULL
        );
        CREATE TABLE ledger (
            widget_id TEXT NOT NULL REFERENCES widgets(id) ON DELETE CASCADE,
            started_at TEXT NOT NULL
        );
        CREATE INDEX ledger_by_widget ON ledger (widget_id, started_at);
        PRAGMA application_id = \(applicationID);
        """,
        // 2: Live Activities (issue 15). `activities.record` is the ActivityRecord as JSON;
        // `activity_pushes` copies each one's priority-10 push ledger.
        """
        CREATE TABLE activity_host (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            next_activity_number INTEGER NOT NULL,
            record TEXT NOT NULL
        );
        CREATE TABLE activities (
            id TEXT PRIMARY KEY NOT NULL CHECK (id <> ''),
            app TEXT NOT NULL,
            attributes_type TEXT NOT NULL,
            state TEXT NOT NULL,
            started_at TEXT NOT NULL,
            record TEXT NOT NULL
        );
        CREATE TABLE activity_pushes (
            activity_id TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
            delivered_at TEXT NOT NULL
        );
        CREATE INDEX activity_pushes_by_activity ON activity_pushes (activity_id, delivered_at);
        """,
        // 3: a configurable widget's intent values (issue 14), as JSON with sorted keys.
        """
        ALTER TABLE widgets ADD COLUMN configuration TEXT;
        """,
    ]

    /// Brings the schema up to `version`, one transaction per migration. The caller has
    /// checked that the file is not newer.
    static func migrate(_ db: Database) throws {
        let current = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        for (index, sql) in migrations.enumerated() where index + 1 > current {
            try db.inTransaction {
                try db.execute(sql: sql)
                try db.execute(sql: "PRAGMA user_version = \(index + 1)")
                return .commit
            }
        }
    }
}
