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
    private var fields: [String: Fields] = [:]
    /// Ids in the order they were admitted, from `head` on.
    private var order: [String] = []
    private var head = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// How many widgets' fields are kept.
    var count: Int { fields.count }

    /// The record as JSON, reusing the bytes of every field that did not change.
    mutating func encode(_ record: WidgetRecord) throws -> [UInt8] {
        let id = record.info.id
        let known = fields.removeValue(forKey: id)
        var kept = known ?? Fields()
        var writer = ObjectWriter()
        try writer.member("addedAt", record.addedAt, &kept.addedAt, RecordFieldJSON.date)
        try writer.member("backoff", record.backoff, &kept.backoff, RecordFieldJSON.backoff)
        try writer.member("diagnostics", record.diagnostics, &kept.diagnostics, RecordFieldJSON.diagnostics)
        try writer.member("info", record.info, &kept.info, RecordFieldJSON.info)
        try writer.member("interaction", record.interaction, &kept.interaction, RecordFieldJSON.value)
        try writer.member("lastOutcome", record.lastOutcome, &kept.lastOutcome, RecordFieldJSON.lastOutcome)
        try writer.member("ledger", record.ledger, &kept.ledger, RecordFieldJSON.dates)
        try writer.member("pending", record.pending, &kept.pending, RecordFieldJSON.pending)
        try writer.member("pinnedBudget", record.pinnedBudget, &kept.pinnedBudget, RecordFieldJSON.integer)
        try writer.member("placeholder", record.placeholder, &kept.placeholder, RecordFieldJSON.entry)
        try writer.member("previousEntry", record.previousEntry, &kept.previousEntry, RecordFieldJSON.entry)
        try writer.member("running", record.running, &kept.running, RecordFieldJSON.running)
        try writer.member("shown", record.shown, &kept.shown, RecordFieldJSON.shown)
        try writer.member("timeline", record.timeline, &kept.timeline, RecordFieldJSON.timeline)
        try writer.member("views", record.views, &kept.views, RecordFieldJSON.dates)
        fields[id] = kept
        if known == nil { admitted(id) }
        return writer.finish()
    }

    /// Drops a removed widget's fields.
    mutating func forget(_ id: String) {
        fields.removeValue(forKey: id)
    }

    /// A widget whose fields were not kept: the one kept longest makes room.
    private mutating func admitted(_ id: String) {
        order.append(id)
        while fields.count > capacity, head < order.count {
            let oldest = order[head]
            head += 1
            if oldest != id { fields.removeValue(forKey: oldest) }
        }
        // Forgotten ids and ids admitted again after being forgotten stay in `order`.
        if order.count - head > 2 * capacity || head > capacity {
            var seen = Set<String>()
            order = order[head...].reversed().filter { fields[$0] != nil && seen.insert($0).inserted }.reversed()
            head = 0
        }
    }

    /// One field's value and the JSON made from it.
    struct Kept<Value: Encodable & Equatable> {
        var value: Value
        var bytes: [UInt8]
    }

    private struct Fields {
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
    /// the synthesized `encode(to:)` leaves it out (`encodeIfPresent`). A field that changed
    /// is written by its `RecordFieldJSON` writer; one the writer gives up on (it threw) is
    /// encoded by `WireCoding`, which writes it or throws what the whole record's encoding
    /// would have thrown.
    private struct ObjectWriter {
        /// A fill's records are 870 bytes.
        private var text = JSONTextWriter(reservingCapacity: 1024)

        init() {
            text.append("{")
        }

        mutating func member<Value: Encodable & Equatable>(
            _ key: StaticString, _ value: Value?, _ kept: inout Kept<Value>?,
            _ write: (inout JSONTextWriter, Value) throws -> Void
        ) throws {
            guard let value else {
                kept = nil
                return
            }
            if text.count > 1 { text.append(",") }
            text.append("\"")
            text.append(key)
            text.append("\":")
            if let kept, kept.value == value {
                text.append(contentsOf: kept.bytes)
                return
            }
            let start = text.count
            do {
                try write(&text, value)
            } catch {
                text.truncate(to: start)
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
