import Foundation
import GRDB
import GRDBSQLite
import WidgetHostCore

/// The statements every core step's write runs, prepared once on the store's connection and
/// run through SQLite's C API: `BEGIN IMMEDIATE`, `COMMIT`, the widget upsert and the
/// ledger's rows.
///
/// Through GRDB, a step's transaction cost ~95,000 instructions: `BEGIN` and `COMMIT` were
/// parsed again every time (~20,000 each with GRDB's bookkeeping), and each bound argument
/// went through `DatabaseValue` (issue 16, callgrind). The statements belong to the
/// connection and are used only inside the `DatabaseQueue`'s closures, which run one at a
/// time; `finalize()` runs before the queue closes.
final class StoreStatements: @unchecked Sendable {
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    private var rollback: OpaquePointer?
    private var upsertWidget: OpaquePointer?
    private var clearLedger: OpaquePointer?
    private var addLedger: OpaquePointer?
    private var removeLedgerRow: OpaquePointer?

    /// The ledger rows the file holds for the widgets written last (what their last
    /// committed write stored), so that a write whose ledger did not change leaves the rows
    /// alone and one that added a start appends it. Changed only after a `COMMIT`; bounded.
    private(set) var committedLedgers: [String: [Date]] = [:]
    static let ledgerMemoCapacity = 1024

    /// The widgets whose ledger has rows in the file, once that is known: `load()` gives
    /// them (each record's ledger is what its rows hold: both are written in one
    /// transaction), every commit keeps them. Only widgets with a non-empty ledger are in it
    /// (none in a fill). nil until then: a widget the memo does not know has its rows
    /// deleted before its ledger is written, whatever they are.
    ///
    /// In a fill the memo never knows the widget (its add and its replies are thousands of
    /// writes apart, and the memo is bounded), so every write ran `DELETE FROM ledger` for
    /// rows that did not exist: 4,500 instructions a write (issue 16, figure 4).
    private(set) var widgetsWithLedgerRows: Set<String>?

    /// What the file holds: the widgets with ledger rows (after a load).
    func knowLedgerRows(of widgets: Set<String>) {
        widgetsWithLedgerRows = widgets
    }

    /// What a committed transaction stored: the changed widgets' ledgers; the removed
    /// widgets' rows are gone.
    func committed(changed: [WidgetRecord], removed: [WidgetID]) {
        if committedLedgers.count + changed.count + removed.count > Self.ledgerMemoCapacity {
            committedLedgers.removeAll(keepingCapacity: true)
        }
        for index in changed.indices { committed(changed[index].info.id, ledger: changed[index].ledger) }
        for id in removed { committed(id.rawValue, ledger: nil) }
    }

    /// `widget`'s ledger as stored (nil: its rows are gone).
    private func committed(_ widget: String, ledger: [Date]?) {
        committedLedgers[widget] = ledger
        guard widgetsWithLedgerRows != nil else { return }
        if let ledger, !ledger.isEmpty {
            widgetsWithLedgerRows?.insert(widget)
        } else {
            widgetsWithLedgerRows?.remove(widget)
        }
    }

    /// Brings `widget`'s ledger rows from what the file holds to `ledger`: nothing when
    /// they are equal; the starts that left the window deleted and the new ones appended
    /// when `ledger` continues what is stored (a budgeted reload appends one, the window
    /// drops the oldest); otherwise every row written again (none deleted for a widget known
    /// to have none).
    func writeLedger(_ widget: String, _ ledger: [Date], format: (Date) -> String) throws {
        if let stored = storedLedger(widget) {
            if stored == ledger { return }
            if let dropped = (0...stored.count).first(where: { ledger.starts(with: stored[$0...]) }) {
                for start in stored[..<dropped] { try removeLedgerRow(widget, startedAt: format(start)) }
                for start in ledger[(stored.count - dropped)...] { try addLedgerRow(widget, startedAt: format(start)) }
                return
            }
        }
        try clearLedger(of: widget)
        for start in ledger { try addLedgerRow(widget, startedAt: format(start)) }
    }

    /// What the file holds for `widget`, when that is known.
    private func storedLedger(_ widget: String) -> [Date]? {
        if let stored = committedLedgers[widget] { return stored }
        if let withRows = widgetsWithLedgerRows, !withRows.contains(widget) { return [] }
        return nil
    }

    /// A statement failed: SQLite's code and message.
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "SQLite error \(code): \(message)" }
    }

    /// Prepares the statements on `db`'s connection the first time.
    func prepare(_ db: Database) throws {
        guard begin == nil else { return }
        guard let connection = db.sqliteConnection else { throw Failure(code: SQLITE_MISUSE, message: "the connection is closed") }
        func make(_ sql: String) throws -> OpaquePointer {
            var statement: OpaquePointer?
            let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard code == SQLITE_OK, let statement else {
                throw Failure(code: code, message: String(cString: sqlite3_errmsg(connection)))
            }
            return statement
        }
        rollback = try make("ROLLBACK")
        commit = try make("COMMIT")
        upsertWidget = try make(
            """
            INSERT INTO widgets (id, kind, family, app, extension, added_at, record, configuration)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, family = excluded.family,
                app = excluded.app, extension = excluded.extension, added_at = excluded.added_at,
                record = excluded.record, configuration = excluded.configuration
            """)
        clearLedger = try make("DELETE FROM ledger WHERE widget_id = ?")
        addLedger = try make("INSERT INTO ledger (widget_id, started_at) VALUES (?, ?)")
        removeLedgerRow = try make(
            "DELETE FROM ledger WHERE rowid = (SELECT rowid FROM ledger WHERE widget_id = ? AND started_at = ? LIMIT 1)")
        // Last: `begin != nil` says all are prepared.
        begin = try make("BEGIN IMMEDIATE")
    }

    /// Finalizes every statement (before the connection closes).
    func finalize() {
        for statement in [begin, commit, rollback, upsertWidget, clearLedger, addLedger, removeLedgerRow] {
            sqlite3_finalize(statement)
        }
        begin = nil
        commit = nil
        rollback = nil
        upsertWidget = nil
        clearLedger = nil
        addLedger = nil
        removeLedgerRow = nil
    }

    deinit { finalize() }

    // MARK: - Running them

    func beginTransaction() throws { try run(begin, []) }
    func commitTransaction() throws { try run(commit, []) }

    /// Rolls back whatever is open; a failure here leaves SQLite to roll back on its own.
    func rollbackTransaction() {
        guard let rollback else { return }
        sqlite3_step(rollback)
        sqlite3_reset(rollback)
    }

    func upsertWidget(
        id: String, kind: String, family: String, app: String, extension: String, addedAt: String, record: [UInt8],
        configuration: String?
    ) throws {
        try run(
            upsertWidget,
            [
                .text(id), .text(kind), .text(family), .text(app), .text(`extension`), .text(addedAt), .bytes(record),
                configuration.map { .text($0) } ?? .null,
            ])
    }

    func clearLedger(of widget: String) throws { try run(clearLedger, [.text(widget)]) }
    func addLedgerRow(_ widget: String, startedAt: String) throws { try run(addLedger, [.text(widget), .text(startedAt)]) }
    func removeLedgerRow(_ widget: String, startedAt: String) throws {
        try run(removeLedgerRow, [.text(widget), .text(startedAt)])
    }

    /// A bound argument: text, UTF-8 text already in bytes, or NULL.
    enum Argument {
        case text(String)
        case bytes([UInt8])
        case null
    }

    /// Binds, steps to the end, resets, clears the bindings. SQLite copies nothing: each
    /// argument is bound `SQLITE_STATIC`, pointing at its own bytes, which are valid only inside
    /// that argument's `withUTF8` (a small string's bytes are a copy on the stack), so the
    /// arguments are bound one inside the other and the statement steps inside the last; it is
    /// reset and its bindings cleared there too, before any of them is gone, as SQLite asks of
    /// static bytes ("valid until the parameter is bound to something else").
    ///
    /// With `SQLITE_TRANSIENT` SQLite copied every text into memory of its own and freed the
    /// last run's copy at the next bind: 10.5 k of the 13.7 k instructions a warm reload's two
    /// transactions spent here outside `sqlite3_step` (issue 16, callgrind).
    private func run(_ statement: OpaquePointer?, _ arguments: [Argument]) throws {
        guard let statement else { throw Failure(code: SQLITE_MISUSE, message: "statements not prepared") }
        // Every run binds all of the statement's parameters.
        assert(arguments.count == Int(sqlite3_bind_parameter_count(statement)), "every parameter bound")
        do {
            try bindAndStep(statement, arguments[...], position: 1)
        } catch {
            // A bind that failed: nothing stepped; no binding may outlive its bytes.
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            throw error
        }
    }

    /// Binds `arguments` from `position` on, each inside the last one's closure, then steps.
    private func bindAndStep(_ statement: OpaquePointer, _ arguments: ArraySlice<Argument>, position: Int32) throws {
        guard let argument = arguments.first else {
            var code = sqlite3_step(statement)
            while code == SQLITE_ROW { code = sqlite3_step(statement) }
            // The message before the reset, as SQLite's error for the step.
            let error = code == SQLITE_DONE ? nil : failure(code, statement)
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            if let error { throw error }
            return
        }
        let rest = arguments.dropFirst()
        switch argument {
        case .text(var text):
            try text.withUTF8 { utf8 in
                try check(Self.bind(statement, position, utf8), statement)
                try bindAndStep(statement, rest, position: position + 1)
            }
        case .bytes(let bytes):
            try bytes.withUnsafeBufferPointer { utf8 in
                try check(Self.bind(statement, position, utf8), statement)
                try bindAndStep(statement, rest, position: position + 1)
            }
        case .null:
            try check(sqlite3_bind_null(statement, position), statement)
            try bindAndStep(statement, rest, position: position + 1)
        }
    }

    private func check(_ code: Int32, _ statement: OpaquePointer) throws {
        guard code == SQLITE_OK else { throw failure(code, statement) }
    }

    private func failure(_ code: Int32, _ statement: OpaquePointer) -> Failure {
        let connection = sqlite3_db_handle(statement)
        return Failure(code: code, message: connection.map { String(cString: sqlite3_errmsg($0)) } ?? "")
    }

    /// `utf8` bound `SQLITE_STATIC` (a nil destructor): SQLite keeps the pointer, copies nothing.
    private static func bind(_ statement: OpaquePointer, _ position: Int32, _ utf8: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            return sqlite3_bind_text(statement, position, "", 0, transient)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { text in
            sqlite3_bind_text(statement, position, text, Int32(utf8.count), nil)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind returns (the empty text
    /// only, whose pointer is a temporary C string).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
