import Foundation
import Testing
@testable import WidgetHostCore
import WidgetHostDaemon
import WidgetHostDriver
import WidgetHostProtocol

/// `StoreStatements` binds each text `SQLITE_STATIC`, pointing at the argument's own bytes
/// (a small string's are a copy on the stack), instead of letting SQLite copy it: the
/// `widgets` row must hold exactly the record's columns, whatever their lengths, and a
/// shorter write after a longer one must leave nothing of the longer behind.
@Suite("State store: the widget row's columns, bound without copies", .tags(.sqliteShell))
struct StoreBindingTests {
    /// The row of `id`, each column as hex (NULL as "NULL"), in the table's order.
    static func row(_ path: String, _ id: String) throws -> [String] {
        let columns = ["id", "kind", "family", "app", "extension", "added_at", "record", "configuration"]
        let select = columns.map { "CASE WHEN \($0) IS NULL THEN 'NULL' ELSE hex(\($0)) END" }.joined(separator: " || ',' || ")
        return try sqlite3(path, "SELECT \(select) FROM widgets WHERE id = '\(id)';")
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",", omittingEmptySubsequences: false)
            .map(String.init)
    }

    static func hex(_ text: String) -> String { hex(Array(text.utf8)) }
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    /// What the row must hold for `record`.
    static func expected(_ record: WidgetRecord) throws -> [String] {
        let info = record.info
        return [
            hex(info.id), hex(info.kind), hex(info.family.rawValue), hex(info.app), hex(info.extension),
            hex(RFC3339.format(record.addedAt)), hex(try WireCoding.encodeBytes(record)),
            try info.configuration.map { hex(try WireCoding.encodeBytes($0)) } ?? "NULL",
        ]
    }

    @Test("Empty, small (inline), long and non-ASCII texts, a configuration and none, written longer then shorter")
    func columns() throws {
        let scratch = ScratchDirectory()
        var record = richRecord(5)
        do {
            let store = try SQLiteStateStore(directory: scratch.path)
            try write(store, &record)
        }
        // And back through the store's own reading.
        let loaded = try #require(try SQLiteStateStore(directory: scratch.path).load())
        #expect(loaded.widgets == [record])
    }

    @Test("Each row's added_at is its own widget's, written alternately and after a change")
    func addedAtPerWidget() throws {
        let scratch = ScratchDirectory()
        let store = try SQLiteStateStore(directory: scratch.path)
        var first = richRecord(1)
        var second = richRecord(2)
        for round in 0..<3 {
            if round == 2 { first.addedAt += 0.5 }
            first.views.append(stateT0 + Double(round))
            second.views.append(stateT0 + Double(round))
            try store.write(host: nil, changed: [first], removed: [])
            try store.write(host: nil, changed: [second], removed: [])
            try store.write(host: nil, changed: [first], removed: [])
            #expect(try Self.row(store.path, first.info.id) == Self.expected(first), "round \(round)")
            #expect(try Self.row(store.path, second.info.id) == Self.expected(second), "round \(round)")
        }
    }

    private func write(_ store: SQLiteStateStore, _ record: inout WidgetRecord) throws {
        let shapes: [(kind: String, app: String, extension: String, configuration: IntentValues?)] = [
            ("K", "", "e", nil),
            (String(repeating: "LongKindName", count: 40), "com.example.a-rather-long-app-identifier", "ext.π✓😀", ["city": "Zürich", "n": 3]),
            ("Short", "a", String(repeating: "x", count: 15), ["on": true]),
            (String(repeating: "é", count: 8), "com.app", "", nil),
        ]
        for (index, shape) in shapes.enumerated() {
            record.info = WidgetInfo(
                id: record.info.id, kind: shape.kind, family: record.info.family, app: shape.app, extension: shape.extension,
                configuration: shape.configuration)
            record.views.append(stateT0 + Double(index))
            try store.write(host: nil, changed: [record], removed: [])
            #expect(try Self.row(store.path, record.info.id) == Self.expected(record), "shape \(index)")
        }
    }
}
