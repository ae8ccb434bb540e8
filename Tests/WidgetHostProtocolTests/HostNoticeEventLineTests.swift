import Foundation
import Testing
@testable import WidgetHostProtocol

/// `HostNotice.eventLine()` writes the notice's flat keys itself, in sorted order; its bytes
/// must stay what Foundation's `JSONEncoder` (as `WireCoding.encoder` is set up) writes for
/// the notification, byte for byte.
@Suite("Notice event lines: JSONEncoder's bytes, written directly")
struct HostNoticeEventLineTests {
    static let t0 = HostNoticeWireTests.t0

    /// What Foundation writes for the `event` notification carrying `notice`.
    private static func foundationLine(_ notice: HostNotice) throws -> String {
        let params = String(decoding: try WireCoding.encoder.encode(notice), as: UTF8.self)
        return #"{"jsonrpc":"2.0","method":"event","params":"# + params + "}\n"
    }

    /// The direct path's bytes equal Foundation's, and the direct path wrote them (no fallback).
    private func same(_ notice: HostNotice, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = try WireEncoder.eventLine(notice)
        let foundation = try Self.foundationLine(notice)
        #expect(String(decoding: direct, as: UTF8.self) == foundation, sourceLocation: sourceLocation)
        #expect(try notice.eventLine() == direct, sourceLocation: sourceLocation)
        #expect(
            try Data(notice.eventLine()) == JSONRPCMessage.notificationLine(method: "event", params: notice),
            sourceLocation: sourceLocation)
    }

    @Test("Every notice type, as the wire tests spell it", arguments: HostNoticeWireTests.cases)
    func everyType(notice: HostNotice, text: String) throws {
        try same(notice)
        let line = try notice.eventLine()
        #expect(String(decoding: line, as: UTF8.self) == #"{"jsonrpc":"2.0","method":"event","params":"# + text + "}\n")
    }

    /// Strings with everything `JSONEncoder` escapes or leaves alone, in every string field.
    static let awkward = [
        "", "plain", #"quote " and backslash \ and slash /"#, "tab\tnewline\nreturn\rback\u{8}feed\u{C}",
        "\u{0}\u{1}\u{1F}\u{7F}", "é ü 漢字 🙂", "\u{2028}\u{2029}", "</script>",
    ]

    @Test("Strings that need escaping, in every string field")
    func awkwardStrings() throws {
        for text in Self.awkward {
            let widget = NoticeWidget(id: text, kind: text, extension: text)
            try same(.widgetAdded(widget, at: Self.t0))
            try same(
                .reloadFinished(
                    widget, at: Self.t0, budgeted: false, result: .crashed, durationMs: 1, footprintBytes: nil, detail: text))
            try same(.extensionStopped(extension: text, at: Self.t0, detail: text))
            try same(
                .intentStarted(
                    extension: text, widgetId: text, control: text, at: Self.t0, intent: text, button: text, isOn: false))
            try same(
                .intentFinished(
                    extension: text, widgetId: nil, control: text, at: Self.t0, intent: text, outcome: .failed,
                    durationMs: 0, detail: text))
            try same(.controlUpdated(extension: text, control: text, at: Self.t0, value: nil, detail: text))
            try same(
                .entryChanged(
                    widget, at: Self.t0, entry: TimelineEntryPayload(date: Self.t0, content: [text: .string(text)]),
                    source: .timeline))
            try same(
                .diagnostic(widget, Diagnostic(at: Self.t0, code: text, severity: .error, message: text)))
        }
    }

    @Test("Numbers and dates as JSONEncoder writes them")
    func numbersAndDates() throws {
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        for duration in [0, -0.0, 0.5, 12, 1e-7, 1.0 / 3, 2500.25, 1e21, 123_456_789.125, -3] {
            for footprint in [nil, 0, 1, 4_194_304, Int.max, Int.min] {
                try same(
                    .reloadFinished(
                        widget, at: Self.t0, budgeted: true, result: .success, durationMs: duration,
                        footprintBytes: footprint, detail: nil))
                try same(
                    .extensionKilled(
                        extension: "e.x", widgetId: nil, at: Self.t0, result: .memoryLimitExceeded, durationMs: duration,
                        footprintBytes: footprint, detail: "killed"))
            }
        }
        for date in [Self.t0 + 0.000_001, Self.t0 + 0.5, Self.t0 - 1e9, Date(timeIntervalSince1970: 0), Self.t0 + 0.123_456_7] {
            try same(.reloadStarted(widget, at: date, charge: .exempt(.foreground), requestedAt: date - 0.25))
            try same(.reloadCoalesced(widget, at: date, budgeted: true, until: date + 60.5, reason: .minInterval))
            try same(
                .reloadDeferred(widget, at: date, budgeted: false, requestedAt: date, until: nil, reason: .budgetExhausted))
        }
    }

    @Test("An entry with relevance, a view and nested content")
    func richEntry() throws {
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        let content: JSONValue = [
            "z": 1, "a": [1, 2.5, "x", nil, true], "m": ["b": ["c": "d"], "a": []], "n": -7, "é": "é", "A": "upper",
        ]
        for relevance in [nil, EntryRelevance(score: 0.25), EntryRelevance(score: 1, duration: 3600)] {
            let entry = TimelineEntryPayload(date: Self.t0, relevance: relevance, content: content)
            try same(.entryChanged(widget, at: Self.t0, entry: entry, source: .timeline))
            try same(.snapshotReceived(widget, at: Self.t0, entry: entry))
        }
        for entry in WireEncoderPayloadTests.entries {
            try same(.entryChanged(widget, at: Self.t0, entry: entry, source: .timeline))
        }
        for source in [EntrySource.none, .placeholder, .previousTimeline, .timeline] {
            try same(.entryChanged(widget, at: Self.t0, entry: nil, source: source))
        }
    }

    @Test("A notice JSONEncoder refuses (NaN in an entry) is refused as before")
    func refused() {
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        let entry = TimelineEntryPayload(date: Self.t0, content: ["x": .number(.nan)])
        let notice = HostNotice.entryChanged(widget, at: Self.t0, entry: entry, source: .timeline)
        #expect(throws: WireEncoder.Unsupported.self) { try WireEncoder.eventLine(notice) }
        #expect(throws: (any Error).self) { try notice.eventLine() }
        #expect(throws: (any Error).self) { try JSONRPCMessage.notificationLine(method: "event", params: notice) }
    }
}
