import Foundation
import Testing
@testable import WidgetHostCore
import WidgetHostProtocol

/// A restarted daemon holds 10,000 records in one array (docs/benchmarks.md, figure 4): what
/// each costs inline, and that keeping parts out of line or shared changes no value or byte.
@Suite("Record footprint")
struct RecordFootprintTests {
    private let t0 = Date(timeIntervalSince1970: 1_771_113_600)

    @Test("A widget record is at most 520 bytes inline (872 when entries held their views and the tapped intent inline)")
    func recordStride() {
        #expect(MemoryLayout<WidgetRecord>.stride <= 520)
        #expect(MemoryLayout<TimelineEntryPayload>.stride <= 64)
        #expect(MemoryLayout<RunningIntent?>.stride <= 8)
    }

    @Test("An entry encodes as before its view moved out of line: content always, relevance and view when present")
    func entryBytes() throws {
        let plain = TimelineEntryPayload(date: t0, content: .null)
        #expect(String(decoding: try WireCoding.encode(plain), as: UTF8.self) == #"{"content":null,"date":"2026-02-15T00:00:00Z"}"#)
        let view = ViewArchive(family: .systemSmall, root: ViewNode(.text([ArchiveTextRun(.string("Hi"))])))
        var full = TimelineEntryPayload(date: t0, relevance: EntryRelevance(score: 0.5), content: .integer(1), view: view)
        let bytes = String(decoding: try WireCoding.encode(full), as: UTF8.self)
        #expect(bytes.hasPrefix(#"{"content":1,"date":"2026-02-15T00:00:00Z","relevance":{"score":0.5},"view":{"#))
        #expect(try WireCoding.decode(TimelineEntryPayload.self, from: Data(bytes.utf8)) == full)
        let copy = full
        full.view = nil
        #expect(copy.view == view, "a copy keeps its view when the original's changes")
        #expect(full != copy && full.hashValue != copy.hashValue)
    }

    @Test("A tapped intent round-trips with every field, and changing a copy leaves the original")
    func runningIntentFields() throws {
        var intent = RunningIntent(
            request: RequestID(7), intent: IntentInvocation(type: "SetReminderIntent", title: "Reminder"), button: "b1",
            startedAt: t0, toggledTo: true)
        let original = intent
        intent.endedAt = t0 + 1
        #expect(original.isRunning && !intent.isRunning)
        let bytes = String(decoding: try WireCoding.encode(intent), as: UTF8.self)
        #expect(bytes.contains(#""button":"b1""#) && bytes.contains(#""endedAt":"2026-02-15T00:00:01Z""#))
        #expect(bytes.contains(#""toggledTo":true"#) && bytes.contains(#""SetReminderIntent""#))
        #expect(try WireCoding.decode(RunningIntent.self, from: Data(bytes.utf8)) == intent)
        #expect(!String(decoding: try WireCoding.encode(original), as: UTF8.self).contains("endedAt"))
    }

    @Test("Restoring shares the shown entry with the timeline entry it equals, and every record stays equal")
    func restoreSharesWithoutChangingValues() {
        var test = TestHost(provider: { params in
            .timeline(
                TimelinePayload(
                    entries: [entry(at: params.now), entry(at: params.now + .minutes(5))],
                    policy: .after(params.now + .hours(6))))
        })
        for _ in 1...20 { test.add() }
        test.advance(by: .minutes(6))
        let records = test.host.allRecords
        #expect(records.allSatisfy { $0.shown?.entry != nil })
        let decoded = records.map { try! WireCoding.decode(WidgetRecord.self, from: try! WireCoding.encode($0)) }
        let restored = WidgetHost(restoring: test.host.host, widgets: decoded)
        #expect(restored.allRecords == records)
        #expect(restored.allRecords.map(\.shown?.entry) == records.map(\.shown?.entry))
    }

    @Test("A record with a timeline, views, a tapped intent and a ledger is written byte for byte as Foundation writes it")
    func recordBytesMatchFoundation() throws {
        var test = TestHost(provider: { params in
            .timeline(
                TimelinePayload(
                    entries: [entry(at: params.now), entry(at: params.now + .minutes(5))],
                    policy: .after(params.now + .hours(6))))
        })
        for _ in 1...3 { test.add() }
        test.advance(by: .minutes(6))
        var records = test.host.allRecords
        let view = ViewArchive(family: .systemSmall, root: ViewNode(.text([ArchiveTextRun(.string("Hi \"there\"/"))])))
        records[0].placeholder = TimelineEntryPayload(date: t0, relevance: EntryRelevance(score: 0.25), content: ["x": 1.5], view: view)
        records[0].ledger = [t0, t0 + 0.125]
        records[0].interaction = RunningIntent(
            request: RequestID(7), intent: IntentInvocation(type: "SetReminderIntent", title: "Reminder"), button: "b1",
            startedAt: t0, toggledTo: true)
        for record in records {
            #expect(try WireCoding.encode(record) == WireCoding.encoder.encode(record))
        }
    }
}
