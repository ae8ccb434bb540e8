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
}
