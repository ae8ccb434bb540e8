import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// A widget record's JSON, byte for byte what `WireCoding.encodeBytes(record)` writes, made
/// field by field, each field's bytes kept beside the value they were made from.
///
/// A core step changes few fields of a record (a reload's request step: `running` and
/// `pending`; its reply: the timeline, the entry shown, the outcome), yet every step wrote
/// the whole record again: the record's JSON was 0.37 M of a warm reload's 1.28 M daemon
/// instructions (issue 16, docs/benchmarks.md). A field whose value equals (`==`) the one its
/// bytes were made from reuses them; any other is encoded again. The bytes are a function of
/// the value alone, not of what the file holds, so a write that fails leaves nothing stale.
/// `Equatable` is the only judge: a string canonically equal to the kept one (é composed or
/// decomposed) or `-0.0` after `0.0` keeps the earlier bytes, which decode to a value equal
/// to the new one.
///
/// It keeps the fields of the `capacity` widgets written last (a reload writes one widget
/// twice in a row; the fill writes each widget's placeholder and timeline replies one after
/// the other), so its memory is bounded whatever the number of widgets.
struct RecordJSON {
    /// The record's keys in the order `WireEncoder` writes them (UTF-8 byte order).
    /// `RecordJSONTests` checks that these are exactly `WidgetRecord`'s stored properties.
    static let keys = [
        "addedAt", "backoff", "diagnostics", "info", "interaction", "lastOutcome", "ledger", "pending",
        "pinnedBudget", "placeholder", "previousEntry", "running", "shown", "timeline", "views",
    ]

    let capacity: Int
    private var fields: [String: KeptFields] = [:]
    /// Admissions in order, from `head` on: an id and the number it was admitted under. An
    /// entry whose number is no longer its widget's (forgotten, or admitted again since) is
    /// passed over.
    private var order: [(id: String, admission: Int)] = []
    private var head = 0
    private var admissions = 0
    /// The entries written last, whichever widget's (`EntryJSONMemo`).
    private var entries = EntryJSONMemo()

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// How many widgets' fields are kept.
    var count: Int { fields.count }

    /// The record as JSON, reusing the bytes of every field that did not change.
    mutating func encode(_ record: WidgetRecord) throws -> [UInt8] {
        let id = record.info.id
        let kept: KeptFields
        if let known = fields[id] {
            kept = known
        } else {
            kept = KeptFields(Fields(admission: admit(id)))
            fields[id] = kept
        }
        return try Self.encode(record, &kept.fields, &entries)
    }

    /// The record's members, each field's bytes reused or made and kept in place: a field is
    /// kept only with the bytes made from it, so a member that throws leaves the ones before
    /// it kept and its own as it was.
    private static func encode(
        _ record: WidgetRecord, _ kept: inout Fields, _ entries: inout EntryJSONMemo
    ) throws -> [UInt8] {
        var writer = ObjectWriter()
        try writer.member(#"{"addedAt":"#, record.addedAt, &kept.addedAt, RecordFieldJSON.date)
        try writer.member(#","backoff":"#, record.backoff, &kept.backoff, RecordFieldJSON.backoff)
        try writer.member(#","diagnostics":"#, record.diagnostics, &kept.diagnostics, RecordFieldJSON.diagnostics)
        try writer.member(#","info":"#, record.info, &kept.info, RecordFieldJSON.info)
        try writer.member(#","interaction":"#, record.interaction, &kept.interaction, RecordFieldJSON.value)
        try writer.member(#","lastOutcome":"#, record.lastOutcome, &kept.lastOutcome, RecordFieldJSON.lastOutcome)
        try writer.member(#","ledger":"#, record.ledger, &kept.ledger, RecordFieldJSON.dates)
        try writer.member(#","pending":"#, record.pending, &kept.pending, RecordFieldJSON.pending)
        try writer.member(#","pinnedBudget":"#, record.pinnedBudget, &kept.pinnedBudget, RecordFieldJSON.integer)
        try writer.member(#","placeholder":"#, record.placeholder, &kept.placeholder) { try entries.write($1, into: &$0) }
        try writer.member(#","previousEntry":"#, record.previousEntry, &kept.previousEntry) { try entries.write($1, into: &$0) }
        try writer.member(#","running":"#, record.running, &kept.running, RecordFieldJSON.running)
        try writer.member(#","shown":"#, record.shown, &kept.shown) { try RecordFieldJSON.shown(&$0, $1, &entries) }
        try writer.member(#","timeline":"#, record.timeline, &kept.timeline) { try RecordFieldJSON.timeline(&$0, $1, &entries) }
        try writer.member(#","views":"#, record.views, &kept.views, RecordFieldJSON.dates)
        return writer.finish()
    }

    /// Drops a removed widget's fields.
    mutating func forget(_ id: String) {
        fields.removeValue(forKey: id)
    }

    /// A widget whose fields are not kept: the one kept longest makes room; its admission
    /// number. In a fill every record is new here (a widget's add and its replies are more
    /// than `capacity` widgets apart), so this runs on every write: `order` is trimmed by
    /// moving entries, not by hashing every id (that cost 5,700 instructions a write).
    private mutating func admit(_ id: String) -> Int {
        while fields.count >= capacity, head < order.count {
            let oldest = order[head]
            head += 1
            if let index = fields.index(forKey: oldest.id), fields.values[index].fields.admission == oldest.admission {
                fields.remove(at: index)
            }
        }
        if head > capacity {
            order.removeSubrange(..<head)
            head = 0
        }
        // Only forgotten widgets leave entries behind that no eviction passes over.
        if order.count > 2 * capacity {
            order = order.filter { fields[$0.id]?.fields.admission == $0.admission }
        }
        admissions += 1
        order.append((id, admissions))
        return admissions
    }

    /// One field's value and the JSON made from it, its key and the comma before it included.
    struct Kept<Value: Encodable & Equatable> {
        var value: Value
        var bytes: [UInt8]

        func matches(_ other: Value) -> Bool { value == other }
    }

    /// A widget's fields, changed in place: taking them out of the dictionary and putting
    /// them back copied and dropped them all, ~2,500 instructions a record (callgrind).
    private final class KeptFields {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private struct Fields {
        /// When the widget was admitted (its entry in `order`).
        var admission: Int
        var addedAt: Kept<Date>?
        var backoff: Kept<Backoff>?
        var diagnostics: Kept<[Diagnostic]>?
        var info: Kept<WidgetInfo>?
        var interaction: Kept<RunningIntent>?
        var lastOutcome: Kept<LastOutcome>?
        var ledger: Kept<[Date]>?
        var pending: Kept<PendingReload>?
        var pinnedBudget: Kept<Int>?
        var placeholder: Kept<TimelineEntryPayload>?
        var previousEntry: Kept<TimelineEntryPayload>?
        var running: Kept<RunningReload>?
        var shown: Kept<CurrentEntry>?
        var timeline: Kept<AcceptedTimeline>?
        var views: Kept<[Date]>?
    }

    /// `{"key":value,…}` from members given in key order; an absent optional is left out, as
    /// the synthesized `encode(to:)` leaves it out (`encodeIfPresent`). `addedAt`, never
    /// absent, comes first: every other member's text starts with its comma, and a member
    /// that did not change is one append of its kept `,"key":value` (a piece per comma, quote
    /// and key cost ~4,700 instructions a record, issue 16, callgrind). A field that changed
    /// is written by its `RecordFieldJSON` writer; one the writer gives up on (it threw) is
    /// encoded by `WireCoding`, which writes it or throws what the whole record's encoding
    /// would have thrown.
    private struct ObjectWriter {
        /// A fill's records are 870 bytes.
        private var text = JSONTextWriter(reservingCapacity: 1024)

        /// An optional member: left out, and nothing kept, when absent.
        mutating func member<Value: Encodable & Equatable>(
            _ prefix: StaticString, _ value: Value?, _ kept: inout Kept<Value>?,
            _ write: (inout JSONTextWriter, Value) throws -> Void
        ) throws {
            switch value {
            case .none: kept = nil
            case .some(let value): try member(prefix, value, &kept, write)
            }
        }

        /// `prefix`: the `{` or `,` before the key, and the key with its quotes and colon.
        /// The kept value is compared where it is (`matches`): binding it to a constant
        /// copied it, ~1,500 instructions a record (issue 16, callgrind).
        mutating func member<Value: Encodable & Equatable>(
            _ prefix: StaticString, _ value: Value, _ kept: inout Kept<Value>?,
            _ write: (inout JSONTextWriter, Value) throws -> Void
        ) throws {
            if kept?.matches(value) == true, let bytes = kept?.bytes {
                text.append(contentsOf: bytes)
                return
            }
            let start = text.count
            text.append(prefix)
            let valueStart = text.count
            do {
                try write(&text, value)
            } catch {
                text.truncate(to: valueStart)
                text.append(contentsOf: try WireCoding.encodeBytes(value))
            }
            kept = Kept(value: value, bytes: text.suffix(from: start))
        }

        mutating func finish() -> [UInt8] {
            text.append("}")
            return text.bytes
        }
    }
}
