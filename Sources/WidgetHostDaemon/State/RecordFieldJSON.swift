import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// The JSON of a widget record's fields, written member by member (`JSONTextWriter`) instead
/// of through `Encoder`: byte for byte what `WireCoding.encodeBytes` writes for each.
///
/// In a fill every record written is new to `RecordJSON`'s memo (its add and its replies are
/// more than 256 widgets apart), so each field was encoded through `WireEncoder`: about
/// 93,000 instructions a record, two records a widget, 0.19 M of the daemon's 0.81 M a widget
/// (issue 16, figure 4, callgrind). Each writer mirrors its type's `encode(to:)` (synthesized,
/// so absent optionals are left out and keys come in UTF-8 order); what is rare or deep —
/// a widget's configuration, an intent, a view archive, a relevance — goes through
/// `JSONTextWriter.value`. A writer that throws is given up: `RecordJSON` encodes that field
/// with `WireCoding` instead. `RecordJSONTests` compares every field with the encoder's
/// bytes and fails when one of these types gains a stored property.
enum RecordFieldJSON {
    static func date(_ text: inout JSONTextWriter, _ date: Date) { text.date(date) }

    static func integer(_ text: inout JSONTextWriter, _ value: Int) { text.integer(value) }

    static func dates(_ text: inout JSONTextWriter, _ dates: [Date]) {
        text.append("[")
        for (index, date) in dates.enumerated() {
            if index > 0 { text.append(",") }
            text.date(date)
        }
        text.append("]")
    }

    static func backoff(_ text: inout JSONTextWriter, _ backoff: Backoff) {
        text.append(#"{"consecutiveFailures":"#)
        text.integer(backoff.consecutiveFailures)
        if let until = backoff.until {
            text.append(#","until":"#)
            text.date(until)
        }
        text.append("}")
    }

    static func diagnostics(_ text: inout JSONTextWriter, _ diagnostics: [Diagnostic]) {
        text.append("[")
        for (index, diagnostic) in diagnostics.enumerated() {
            if index > 0 { text.append(",") }
            text.append(#"{"at":"#)
            text.date(diagnostic.at)
            text.append(#","code":"#)
            text.string(diagnostic.code)
            text.append(#","message":"#)
            text.string(diagnostic.message)
            text.append(#","severity":"#)
            text.string(diagnostic.severity.rawValue)
            text.append("}")
        }
        text.append("]")
    }

    static func info(_ text: inout JSONTextWriter, _ info: WidgetInfo) throws {
        text.append(#"{"app":"#)
        text.string(info.app)
        if let configuration = info.configuration {
            text.append(#","configuration":"#)
            try text.value(configuration)
        }
        text.append(#","extension":"#)
        text.string(info.extension)
        text.append(#","family":"#)
        text.string(info.family.rawValue)
        text.append(#","id":"#)
        text.string(info.id)
        text.append(#","kind":"#)
        text.string(info.kind)
        text.append("}")
    }

    static func lastOutcome(_ text: inout JSONTextWriter, _ outcome: LastOutcome) throws {
        text.append("{")
        if let detail = outcome.detail {
            text.append(#""detail":"#)
            text.string(detail)
            text.append(",")
        }
        text.append(#""durationMs":"#)
        try text.number(outcome.durationMs)
        text.append(#","finishedAt":"#)
        text.date(outcome.finishedAt)
        if let peak = outcome.peakFootprintBytes {
            text.append(#","peakFootprintBytes":"#)
            text.integer(peak)
        }
        text.append(#","result":"#)
        text.string(outcome.result.rawValue)
        text.append(#","startedAt":"#)
        text.date(outcome.startedAt)
        text.append("}")
    }

    static func pending(_ text: inout JSONTextWriter, _ pending: PendingReload) {
        text.append(#"{"cause":"#)
        text.string(pending.cause.rawValue)
        if let deferredBy = pending.deferredBy {
            text.append(#","deferredBy":"#)
            text.string(deferredBy.rawValue)
        }
        if let deferredUntil = pending.deferredUntil {
            text.append(#","deferredUntil":"#)
            text.date(deferredUntil)
        }
        if let exemption = pending.exemption {
            text.append(#","exemption":"#)
            text.string(exemption.rawValue)
        }
        text.append(#","prepaid":"#)
        text.bool(pending.prepaid)
        text.append(#","requestedAt":"#)
        text.date(pending.requestedAt)
        text.append("}")
    }

    static func running(_ text: inout JSONTextWriter, _ running: RunningReload) {
        text.append(#"{"budgeted":"#)
        text.bool(running.budgeted)
        text.append(#","cause":"#)
        text.string(running.cause.rawValue)
        if let exemption = running.exemption {
            text.append(#","exemption":"#)
            text.string(exemption.rawValue)
        }
        text.append(#","requestedAt":"#)
        text.date(running.requestedAt)
        text.append(#","startedAt":"#)
        text.date(running.startedAt)
        text.append("}")
    }

    static func entry(_ text: inout JSONTextWriter, _ entry: TimelineEntryPayload) throws {
        text.append(#"{"content":"#)
        try text.json(entry.content)
        text.append(#","date":"#)
        text.date(entry.date)
        if let relevance = entry.relevance {
            text.append(#","relevance":"#)
            try text.value(relevance)
        }
        if let view = entry.view {
            text.append(#","view":"#)
            try text.value(view)
        }
        text.append("}")
    }

    static func shown(_ text: inout JSONTextWriter, _ shown: CurrentEntry) throws {
        var entries = EntryJSONMemo()
        try Self.shown(&text, shown, &entries)
    }

    static func shown(_ text: inout JSONTextWriter, _ shown: CurrentEntry, _ entries: inout EntryJSONMemo) throws {
        text.append("{")
        if let entry = shown.entry {
            text.append(#""entry":"#)
            try entries.write(entry, into: &text)
            text.append(",")
        }
        text.append(#""source":"#)
        text.string(shown.source.rawValue)
        text.append("}")
    }

    static func timeline(_ text: inout JSONTextWriter, _ timeline: AcceptedTimeline) throws {
        var entries = EntryJSONMemo()
        try Self.timeline(&text, timeline, &entries)
    }

    static func timeline(
        _ text: inout JSONTextWriter, _ timeline: AcceptedTimeline, _ entries: inout EntryJSONMemo
    ) throws {
        text.append(#"{"entries":["#)
        for index in timeline.entries.indices {
            if index > 0 { text.append(",") }
            try entries.write(timeline.entries[index], into: &text)
        }
        text.append(#"],"policy":"#)
        switch timeline.policy {
        case .atEnd: text.append(#"{"type":"atEnd"}"#)
        case .never: text.append(#"{"type":"never"}"#)
        case .after(let date):
            text.append(#"{"date":"#)
            text.date(date)
            text.append(#","type":"after"}"#)
        }
        text.append(#","receivedAt":"#)
        text.date(timeline.receivedAt)
        text.append(#","reloadStartedAt":"#)
        text.date(timeline.reloadStartedAt)
        text.append("}")
    }

    /// Anything else (an intent tapped: rare, and out of line), through `WireEncoder`.
    static func value<Value: Encodable>(_ text: inout JSONTextWriter, _ value: Value) throws { try text.value(value) }
}

/// The JSON of the last few timeline entries written, by value: a reload's reply writes its
/// new entry twice (the entry shown, then the timeline's) and the entry shown before as
/// `previousEntry`, written as the entry shown by the reload before. Each was encoded anew,
/// ~4,500 instructions an entry (issue 16, callgrind); an entry equal (`==`) to a kept one
/// reuses its bytes, which are a function of the value alone.
struct EntryJSONMemo {
    static let capacity = 4
    /// Oldest first; `bytes[i]` is the JSON of `entries[i]`.
    private var entries: [TimelineEntryPayload] = []
    private var bytes: [[UInt8]] = []

    /// How many entries are kept.
    var count: Int { entries.count }

    mutating func write(_ entry: TimelineEntryPayload, into text: inout JSONTextWriter) throws {
        // Newest first, compared in place (a copy of each kept entry cost more than the compare).
        let found = entries.withUnsafeBufferPointer { kept in
            kept.indices.reversed().first { kept[$0] == entry }
        }
        if let found {
            text.append(contentsOf: bytes[found])
            return
        }
        let start = text.count
        try RecordFieldJSON.entry(&text, entry)
        if entries.count == Self.capacity {
            entries.removeFirst()
            bytes.removeFirst()
        }
        entries.append(entry)
        bytes.append(text.suffix(from: start))
    }
}
