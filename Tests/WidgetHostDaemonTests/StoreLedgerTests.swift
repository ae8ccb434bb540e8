import Foundation
import Testing
@testable import WidgetHostCore
import WidgetHostDaemon
import WidgetHostDriver
import WidgetHostProtocol

/// The `ledger` table copies each record's budget ledger. A write leaves a widget's rows
/// alone when its ledger did not change and appends (and drops from the front) when it grew,
/// knowing what the file holds from its own last committed writes: these check the rows
/// against the record after every kind of change, after a failed write and after a reopen.
@Suite("State store: the ledger table", .tags(.sqliteShell))
struct StoreLedgerTests {
    /// The rows for `widget`, as sorted text.
    static func rows(_ path: String, _ widget: String) throws -> [String] {
        try sqlite3(path, "SELECT started_at FROM ledger WHERE widget_id = '\(widget)' ORDER BY started_at")
            .split(separator: "\n").map(String.init)
    }

    static func expected(_ record: WidgetRecord) -> [String] { record.ledger.map(RFC3339.format).sorted() }

    @Test("Unchanged, appended, slid, repeated, emptied and replaced ledgers are stored row for row")
    func everyChange() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        var record = richRecord(3)
        var other = richRecord(2)
        func check(_ step: String) throws {
            try store.write(host: nil, changed: [record, other], removed: [])
            #expect(try Self.rows(store.path, "w3") == Self.expected(record), "\(step)")
            #expect(try Self.rows(store.path, "w2") == Self.expected(other), "\(step): the other widget")
        }
        try check("first")
        try check("unchanged")
        record.ledger.append(stateT0 + 10_000)
        try check("one appended")
        record.ledger.removeFirst()
        record.ledger.append(stateT0 + 20_000)
        try check("the oldest dropped, one appended")
        record.ledger.append(stateT0 + 20_000)
        try check("the same start twice")
        record.ledger.removeFirst(2)
        try check("two dropped")
        record.ledger.removeLast()
        try check("the last of a repeated start dropped")
        other.ledger = []
        try check("the other emptied")
        record.ledger = [stateT0 + 50, stateT0 + 60]
        other.ledger = [stateT0 + 70]
        try check("both replaced")
    }

    @Test("A write that fails leaves the rows and what the store believes it holds as they were")
    func failedWrite() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        var record = richRecord(3)
        try store.write(host: nil, changed: [record], removed: [])
        var grown = record
        grown.ledger.append(stateT0 + 30_000)
        var broken = richRecord(4)
        broken.info.id = ""
        #expect(throws: StateError.self) { try store.write(host: nil, changed: [grown, broken], removed: []) }
        #expect(try Self.rows(store.path, "w3") == Self.expected(record))
        // Had the failed write been taken for stored, this one would have appended nothing.
        try store.write(host: nil, changed: [grown], removed: [])
        #expect(try Self.rows(store.path, "w3") == Self.expected(grown))
        record = grown
        record.ledger.removeFirst()
        try store.write(host: nil, changed: [record], removed: [])
        #expect(try Self.rows(store.path, "w3") == Self.expected(record))
    }

    @Test("A reopened store, which knows nothing of the rows, writes them all again; a removed widget's go")
    func reopened() throws {
        let scratch = ScratchDirectory()
        var record = richRecord(3)
        try SQLiteStateStore(directory: scratch.path).write(host: nil, changed: [record], removed: [])
        let store = try SQLiteStateStore(directory: scratch.path)
        record.ledger.append(stateT0 + 40_000)
        try store.write(host: nil, changed: [record], removed: [])
        #expect(try Self.rows(store.path, "w3") == Self.expected(record))
        try store.write(host: nil, changed: [], removed: ["w3"])
        #expect(try Self.rows(store.path, "w3") == [])
        try store.write(host: nil, changed: [record], removed: [])
        #expect(try Self.rows(store.path, "w3") == Self.expected(record))
    }

    /// A stray row the records do not account for (put there behind the store's back) shows
    /// whether a write deleted the widget's rows first.
    @Test("A loaded store knows which widgets have rows: a widget without any gets its ledger appended, no DELETE first")
    func knownFromTheLoad() throws {
        let scratch = ScratchDirectory()
        var withRows = richRecord(3)
        var without = richRecord(2)
        without.ledger = []
        try SQLiteStateStore(directory: scratch.path).write(host: hostRecord(), changed: [withRows, without], removed: [])
        let stray = "2026-02-15T09:09:09Z"
        func addStray() throws { _ = try sqlite3(scratch.stateFile, "INSERT INTO ledger VALUES ('w2', '\(stray)');") }

        // Not loaded: nothing is known, every unknown widget's rows are deleted first.
        try addStray()
        let unloaded = try SQLiteStateStore(directory: scratch.path)
        without.ledger = [stateT0 + 5]
        try unloaded.write(host: nil, changed: [without], removed: [])
        #expect(try Self.rows(unloaded.path, "w2") == Self.expected(without))

        // Loaded: w2's record had a ledger since, w3's too; emptied, w2 has no rows as far as a
        // new store can tell once it has loaded the records.
        without.ledger = []
        try unloaded.write(host: nil, changed: [without], removed: [])
        try addStray()
        let loaded = try SQLiteStateStore(directory: scratch.path)
        _ = try loaded.load()
        without.ledger = [stateT0 + 6]
        try loaded.write(host: nil, changed: [without], removed: [])
        #expect(
            try Self.rows(loaded.path, "w2") == (Self.expected(without) + [stray]).sorted(),
            "appended to what the records say is nothing; the stray row was not looked for")
        withRows.ledger.append(stateT0 + 40_000)
        try loaded.write(host: nil, changed: [withRows], removed: [])
        #expect(try Self.rows(loaded.path, "w3") == Self.expected(withRows), "a widget with rows, unknown to the memo: written in full")

        // What commits teach it: emptied, then grown again, then removed and written anew.
        _ = try sqlite3(scratch.stateFile, "DELETE FROM ledger WHERE started_at = '\(stray)';")
        withRows.ledger = []
        try loaded.write(host: nil, changed: [withRows], removed: [])
        #expect(try Self.rows(loaded.path, "w3") == [])
        withRows.ledger = [stateT0 + 50]
        try loaded.write(host: nil, changed: [withRows], removed: [])
        #expect(try Self.rows(loaded.path, "w3") == Self.expected(withRows))
        try loaded.write(host: nil, changed: [], removed: ["w3"])
        #expect(try Self.rows(loaded.path, "w3") == [])
        try loaded.write(host: nil, changed: [withRows], removed: [])
        #expect(try Self.rows(loaded.path, "w3") == Self.expected(withRows))
    }
}
