import Foundation
import Testing
@testable import WidgetHostCore
@testable import WidgetHostDaemon
import WidgetHostProtocol

/// The store writes each record's JSON field by field, reusing the bytes of fields that did
/// not change since the widget was last written: the result must be the whole record's
/// `WireCoding` bytes every time, whatever changed in between.
@Suite("State store: a record's JSON, field by field")
struct RecordJSONTests {
    @Test("The field list is exactly WidgetRecord's stored properties, in the encoder's key order")
    func keysAreTheRecordsProperties() {
        let properties = Mirror(reflecting: richRecord(2)).children.compactMap(\.label)
        #expect(properties.sorted() == RecordJSON.keys.sorted())
        #expect(RecordJSON.keys == RecordJSON.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }

    @Test("A record is written as the encoder writes it, the first time and after every change", arguments: [1, 2, 3])
    func equalsTheEncoder(number: Int) throws {
        var memo = RecordJSON()
        var record = richRecord(number)
        func check(_ step: String) throws {
            let expected = try WireCoding.encodeBytes(record)
            #expect(try memo.encode(record) == expected, "\(step)")
            // Written again unchanged: every field's bytes reused.
            #expect(try memo.encode(record) == expected, "\(step), again")
        }
        try check("first")
        record.running = nil
        try check("running cleared")
        record.pending = nil
        record.ledger.append(stateT0 + 99_999)
        try check("ledger appended, pending cleared")
        let entry = TimelineEntryPayload(date: stateT0 + 7200, content: ["serial": 9], view: StateStoreViewTests.view)
        record.previousEntry = record.shown?.entry
        record.timeline = AcceptedTimeline(
            entries: [entry], policy: .after(stateT0 + 9000), receivedAt: stateT0 + 7201, reloadStartedAt: stateT0 + 7200)
        record.shown = CurrentEntry(source: .timeline, entry: entry)
        try check("a new timeline with a view")
        record.timeline?.entries[0].content = ["serial": 10]
        try check("the same timeline's entry content changed in place")
        record.shown?.entry?.view = nil
        try check("the shown entry's view dropped")
        record.interaction = RunningIntent(
            request: RequestID(3), intent: IntentInvocation(type: "Refresh", title: "Refresh"), button: "b1",
            startedAt: stateT0, toggledTo: true)
        try check("an intent tapped")
        record.interaction?.endedAt = stateT0 + 1
        try check("the intent ended")
        record.interaction = nil
        record.pinnedBudget = 55
        record.views = []
        record.diagnostics.removeAll()
        try check("cleared and pinned")
        record.info.kind = "Other"
        record.addedAt += 1
        record.backoff = Backoff()
        record.lastOutcome = nil
        record.placeholder = nil
        try check("identity and outcome changed")
    }

    @Test("Records of different widgets keep their own fields; a forgotten or evicted widget is encoded afresh")
    func widgetsApartAndBounded() throws {
        var memo = RecordJSON(capacity: 2)
        let records = (1...3).map { richRecord($0) }
        for record in records { #expect(try memo.encode(record) == WireCoding.encodeBytes(record)) }
        #expect(memo.count == 2, "the widget written first made room")
        for record in records.reversed() { #expect(try memo.encode(record) == WireCoding.encodeBytes(record)) }
        memo.forget("w1")
        #expect(memo.count == 1)
        var changed = records[0]
        changed.timeline = nil
        #expect(try memo.encode(changed) == WireCoding.encodeBytes(changed))
        #expect(try memo.encode(records[0]) == WireCoding.encodeBytes(records[0]))
        for round in 0..<20 {
            let record = richRecord(round % 5 + 1)
            #expect(try memo.encode(record) == WireCoding.encodeBytes(record))
            #expect(memo.count <= 2)
        }
    }

    @Test("A reload's reply: the new entry shown and in the timeline, the one shown before kept as previousEntry")
    func replyReusesEntries() throws {
        var memo = RecordJSON()
        var record = richRecord(1)
        var other = richRecord(2)
        for serial in 1...6 {
            let entry = TimelineEntryPayload(date: stateT0 + Double(serial), content: ["serial": .integer(serial), "pid": 7])
            record.previousEntry = record.shown?.entry
            record.shown = CurrentEntry(source: .timeline, entry: entry)
            record.timeline = AcceptedTimeline(
                entries: [entry], policy: .after(stateT0 + 9000), receivedAt: stateT0 + Double(serial), reloadStartedAt: stateT0)
            #expect(try memo.encode(record) == WireCoding.encodeBytes(record), "serial \(serial)")
            // Another widget showing an entry equal but for one value, and then the same one.
            var near = entry
            near.content = ["serial": .integer(serial), "pid": 8]
            other.shown = CurrentEntry(source: .timeline, entry: near)
            #expect(try memo.encode(other) == WireCoding.encodeBytes(other), "other, serial \(serial)")
            other.shown = CurrentEntry(source: .timeline, entry: entry)
            other.placeholder = record.previousEntry
            #expect(try memo.encode(other) == WireCoding.encodeBytes(other), "other, the same entry, serial \(serial)")
        }
    }

    @Test("A record that fails to encode leaves what is kept right for the next write")
    func failureKeepsItRight() throws {
        var memo = RecordJSON()
        var record = richRecord(2)
        #expect(try memo.encode(record) == WireCoding.encodeBytes(record))
        record.lastOutcome = nil
        record.views.append(stateT0 + 5)
        let good = record
        record.placeholder = TimelineEntryPayload(date: stateT0, content: .number(.nan))
        #expect(throws: (any Error).self) { try memo.encode(record) }
        #expect(try memo.encode(good) == WireCoding.encodeBytes(good))
        #expect(try memo.encode(richRecord(2)) == WireCoding.encodeBytes(richRecord(2)))
    }

    @Test("An entry kept is reused only for an equal entry, and no more than a few are kept")
    func entryMemo() throws {
        var memo = EntryJSONMemo()
        let entries = (0..<6).map { TimelineEntryPayload(date: stateT0 + Double($0), content: ["n": .integer($0)]) }
        for entry in entries + entries.reversed() + entries {
            var text = JSONTextWriter()
            try memo.write(entry, into: &text)
            #expect(text.bytes == (try WireCoding.encodeBytes(entry)))
            #expect(memo.count <= EntryJSONMemo.capacity)
        }
        var relevant = entries[5]
        relevant.relevance = EntryRelevance(score: 0.25, duration: 60)
        var text = JSONTextWriter()
        try memo.write(relevant, into: &text)
        #expect(text.bytes == (try WireCoding.encodeBytes(relevant)))
    }

    @Test("A record just added, with nothing but its identity, is written as the encoder writes it")
    func bareRecord() throws {
        var memo = RecordJSON()
        let record = WidgetRecord(
            info: WidgetInfo(id: "w9", kind: "K", family: .systemSmall, app: "a", extension: "e"), addedAt: stateT0,
            pinnedBudget: nil)
        #expect(try memo.encode(record) == WireCoding.encodeBytes(record))
    }
}
