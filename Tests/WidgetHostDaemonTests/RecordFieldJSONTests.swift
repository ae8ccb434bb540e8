import Foundation
import Testing
@testable import WidgetHostCore
@testable import WidgetHostDaemon
import WidgetHostProtocol

/// Each field of a widget record is written member by member (`RecordFieldJSON`), not
/// through `Encoder`: the bytes must be `WireCoding`'s for every shape a field can take, and
/// a writer that cannot write a value must throw (the record then encodes that field with
/// `WireCoding`), never write something else.
@Suite("State store: a record's fields written member by member")
struct RecordFieldJSONTests {
    /// `write`'s bytes for `value`, or nil when it threw.
    private func written<Value>(_ value: Value, _ write: (inout JSONTextWriter, Value) throws -> Void) -> [UInt8]? {
        var text = JSONTextWriter()
        do {
            try write(&text, value)
            return text.bytes
        } catch {
            return nil
        }
    }

    private func expectEncoderBytes<Value: Encodable>(
        _ value: Value, _ write: (inout JSONTextWriter, Value) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = try WireCoding.encodeBytes(value)
        let bytes = written(value, write)
        #expect(
            bytes == expected,
            "\(String(decoding: bytes ?? [], as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    /// Strings the escaping must get right: quotes, backslashes, control characters, slashes
    /// (not escaped), and text beyond ASCII.
    static let awkward = ["", "plain", "say \"hi\"", #"back\slash"#, "tab\there\nline\r\u{8}\u{c}\u{1}\u{1f}", "a/b", "π ✓ 👩‍💻"]

    @Test("Dates, date lists and integers")
    func scalars() throws {
        for date in [stateT0, stateT0 + 0.5, stateT0 + 0.000_001, stateT0 + 0.123_456, Date(timeIntervalSince1970: -1.25)] {
            try expectEncoderBytes(date, RecordFieldJSON.date)
        }
        try expectEncoderBytes([Date](), RecordFieldJSON.dates)
        try expectEncoderBytes([stateT0, stateT0 + 1.5, stateT0 + 86_400.25], RecordFieldJSON.dates)
        for number in [0, 7, -3, 40, Int.max, Int.min] { try expectEncoderBytes(number, RecordFieldJSON.integer) }
    }

    @Test("Backoff, with and without a time to wait for")
    func backoff() throws {
        var backoff = Backoff()
        try expectEncoderBytes(backoff, RecordFieldJSON.backoff)
        backoff.recordFailure(at: stateT0, rules: BackoffRules())
        backoff.recordFailure(at: stateT0 + 1, rules: BackoffRules())
        try expectEncoderBytes(backoff, RecordFieldJSON.backoff)
    }

    @Test("Diagnostics, with awkward codes and messages")
    func diagnostics() throws {
        try expectEncoderBytes([Diagnostic](), RecordFieldJSON.diagnostics)
        let diagnostics = Self.awkward.enumerated().map { index, text in
            Diagnostic(
                at: stateT0 + Double(index), code: text, severity: [.info, .warning, .error][index % 3], message: "m: " + text)
        }
        try expectEncoderBytes(diagnostics, RecordFieldJSON.diagnostics)
    }

    @Test("A widget's identity, awkward strings, every family, with and without a configuration")
    func info() throws {
        for (index, text) in Self.awkward.enumerated() {
            for family in WidgetFamily.allCases {
                let info = WidgetInfo(id: "w\(index)" + text, kind: text, family: family, app: "app" + text, extension: text + "ext")
                try expectEncoderBytes(info, RecordFieldJSON.info)
            }
        }
        let configured = WidgetInfo(
            id: "w1", kind: "K", family: .systemSmall, app: "a", extension: "e",
            configuration: ["zone": .string("Europe/Paris"), "count": .integer(3), "on": .bool(true), "ratio": .number(0.25)])
        try expectEncoderBytes(configured, RecordFieldJSON.info)
        try expectEncoderBytes(
            WidgetInfo(id: "w2", kind: "K", family: .systemSmall, app: "a", extension: "e", configuration: [:]), RecordFieldJSON.info)
    }

    @Test("The last outcome: every result, whole and fractional durations, optional parts absent")
    func lastOutcome() throws {
        for result in ReloadResultKind.allCases {
            for (finished, peak, detail) in [(90.0, 12_345_678, "no answer in 30 s"), (0.0004, nil, nil), (1.2345, 0, "\"q\"\n")] {
                try expectEncoderBytes(
                    LastOutcome(
                        result: result, startedAt: stateT0, finishedAt: stateT0 + finished, peakFootprintBytes: peak,
                        detail: detail),
                    RecordFieldJSON.lastOutcome)
            }
        }
        var fractional = LastOutcome(result: .success, startedAt: stateT0, finishedAt: stateT0, peakFootprintBytes: nil, detail: nil)
        for duration in [0.5, 1e-7, 123_456_789.25, 1e21, -2] {
            fractional.durationMs = duration
            try expectEncoderBytes(fractional, RecordFieldJSON.lastOutcome)
        }
    }

    @Test("A duration JSON cannot hold: the writer throws, as the encoder does, and the record is refused as before")
    func notANumber() throws {
        var outcome = LastOutcome(result: .success, startedAt: stateT0, finishedAt: stateT0, peakFootprintBytes: nil, detail: nil)
        outcome.durationMs = .nan
        #expect(written(outcome, RecordFieldJSON.lastOutcome) == nil)
        #expect(throws: (any Error).self) { try WireCoding.encodeBytes(outcome) }
        var record = richRecord(1)
        record.lastOutcome = outcome
        var memo = RecordJSON()
        #expect(throws: (any Error).self) { try memo.encode(record) }
        record.lastOutcome?.durationMs = .infinity
        #expect(throws: (any Error).self) { try memo.encode(record) }
        record.lastOutcome?.durationMs = 3
        #expect(try memo.encode(record) == WireCoding.encodeBytes(record), "the memo kept nothing of the refused writes")
    }

    @Test("Pending and running reloads: every cause, exemption and deferral")
    func reloads() throws {
        for cause in [ReloadCause.policy, .requested, .retry, .host] {
            for exemption in [nil] + Exemption.allCases {
                var pending = PendingReload(requestedAt: stateT0, cause: cause, exemption: exemption, prepaid: exemption == .added)
                try expectEncoderBytes(pending, RecordFieldJSON.pending)
                for reason in DeferralReason.allCases {
                    pending.deferredBy = reason
                    pending.deferredUntil = reason == .backoff ? nil : stateT0 + 60.5
                    try expectEncoderBytes(pending, RecordFieldJSON.pending)
                }
                for budgeted in [false, true] {
                    try expectEncoderBytes(
                        RunningReload(startedAt: stateT0 + 1, requestedAt: stateT0, budgeted: budgeted, exemption: exemption, cause: cause),
                        RecordFieldJSON.running)
                }
            }
        }
    }

    @Test("Entries, the entry shown and timelines: contents, relevance, views, every policy")
    func entriesAndTimelines() throws {
        let contents: [JSONValue] = [
            .null, .string("before"), .object([:]), .array([]),
            .object(["name": .string("Ada \"A\""), "age": .integer(36), "share": .number(0.5), "b": .bool(false)]),
            .object(["nested": .object(["z": .array([.null, .number(1e-3), .string("π")]), "a": .integer(-1)])]),
        ]
        var entries: [TimelineEntryPayload] = []
        for (index, content) in contents.enumerated() {
            let relevance: EntryRelevance? = [nil, EntryRelevance(score: 0.5, duration: 600), EntryRelevance(score: 2)][index % 3]
            let entry = TimelineEntryPayload(
                date: stateT0 + Double(index) * 0.25, relevance: relevance, content: content,
                view: index.isMultiple(of: 2) ? StateStoreViewTests.view : nil)
            try expectEncoderBytes(entry, RecordFieldJSON.entry)
            entries.append(entry)
        }
        for source in [EntrySource.timeline, .previousTimeline, .placeholder, .none] {
            try expectEncoderBytes(CurrentEntry(source: source, entry: nil), RecordFieldJSON.shown)
            try expectEncoderBytes(CurrentEntry(source: source, entry: entries[4]), RecordFieldJSON.shown)
        }
        for policy in [TimelinePolicy.atEnd, .never, .after(stateT0 + 7200.5)] {
            for count in [0, 1, entries.count] {
                let timeline = AcceptedTimeline(
                    entries: Array(entries.prefix(count)), policy: policy, receivedAt: stateT0 + 2, reloadStartedAt: stateT0 + 1)
                try expectEncoderBytes(timeline, RecordFieldJSON.timeline)
            }
        }
    }

    @Test("An intent tapped goes through the encoder as a whole")
    func interaction() throws {
        var intent = RunningIntent(
            request: RequestID(3), intent: IntentInvocation(type: "Refresh", title: "Refresh"), button: "b1", startedAt: stateT0,
            toggledTo: true)
        try expectEncoderBytes(intent, RecordFieldJSON.value)
        intent.endedAt = stateT0 + 1
        try expectEncoderBytes(intent, RecordFieldJSON.value)
    }

    /// The writers above name every stored property of these types: one more property would
    /// be left out of the state file without this failing.
    @Test("Every type written member by member has exactly the stored properties its writer writes")
    func storedProperties() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label).sorted() }
        #expect(labels(Backoff()) == ["consecutiveFailures", "until"])
        #expect(
            labels(Diagnostic(at: stateT0, code: "c", severity: .info, message: "m")) == ["at", "code", "message", "severity"])
        #expect(
            labels(WidgetInfo(id: "w", kind: "K", family: .systemSmall, app: "a", extension: "e"))
                == ["app", "configuration", "extension", "family", "id", "kind"])
        #expect(
            labels(LastOutcome(result: .success, startedAt: stateT0, finishedAt: stateT0, peakFootprintBytes: nil, detail: nil))
                == ["detail", "durationMs", "finishedAt", "peakFootprintBytes", "result", "startedAt"])
        #expect(
            labels(PendingReload(requestedAt: stateT0, cause: .policy, exemption: nil))
                == ["cause", "deferredBy", "deferredUntil", "exemption", "prepaid", "requestedAt"])
        #expect(
            labels(RunningReload(startedAt: stateT0, requestedAt: stateT0, budgeted: true, exemption: nil, cause: .policy))
                == ["budgeted", "cause", "exemption", "requestedAt", "startedAt"])
        // The entry's view is stored out of line, as `viewBox`.
        #expect(labels(TimelineEntryPayload(date: stateT0, content: .null)) == ["content", "date", "relevance", "viewBox"])
        #expect(labels(CurrentEntry(source: .none, entry: nil)) == ["entry", "source"])
        #expect(
            labels(AcceptedTimeline(entries: [], policy: .atEnd, receivedAt: stateT0, reloadStartedAt: stateT0))
                == ["entries", "policy", "receivedAt", "reloadStartedAt"])
    }

    @Test("Whole records with awkward strings and every optional part are the encoder's bytes, first and again")
    func wholeRecords() throws {
        var memo = RecordJSON()
        for (index, text) in Self.awkward.enumerated() {
            var record = richRecord(index % 3 + 1, kind: text)
            record.info.configuration = ["text": .string(text)]
            record.diagnostics.append(Diagnostic(at: stateT0, code: text, severity: .error, message: text))
            record.placeholder?.view = StateStoreViewTests.view
            record.interaction = RunningIntent(
                request: RequestID(index), intent: IntentInvocation(type: "T", title: text), button: nil, startedAt: stateT0,
                toggledTo: nil)
            #expect(try memo.encode(record) == WireCoding.encodeBytes(record))
            #expect(try memo.encode(record) == WireCoding.encodeBytes(record))
        }
    }
}
