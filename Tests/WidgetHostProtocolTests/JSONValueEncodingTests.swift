import Foundation
import Testing
import WidgetHostProtocol

/// `JSONValue(encoding:)` builds the value without JSON text; it must be exactly what the
/// text round trip it replaced gave (encode with `WireCoding`, parse back).
@Suite("Encodable values to JSONValue without text")
struct JSONValueEncodingTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400)

    private func roundTrip(_ value: some Encodable) throws -> JSONValue {
        try WireCoding.decoder.decode(JSONValue.self, from: WireCoding.encode(value))
    }

    private struct Numbers: Encodable {
        var whole = 12.0
        var half = 12.5
        var negativeZero = -0.0
        var huge = 1e300
        var small = 1e-7
        var float: Float = 0.1
        var wholeFloat: Float = 3
        var int8: Int8 = -8
        var uint64 = UInt64.max
        var int64 = Int64.min
        var list = [1.0, 2.5, -3.0]
        var flag = true
    }

    private struct Optionals: Encodable {
        var present: String? = "x"
        var absent: String? = nil
        var date: Date? = JSONValueEncodingTests.t0
        var nested: [String: [Int]] = ["a": [1, 2], "b": []]
        var empty: [String] = []
    }

    private struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    private struct Containers: Encodable {
        enum Keys: String, CodingKey { case a, b, c }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try nested.encode(1, forKey: .b)
            try nested.encodeNil(forKey: .c)
            var list = container.nestedUnkeyedContainer(forKey: .b)
            try list.encode("x")
            try list.encode(JSONValueEncodingTests.t0)
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(2.0)
            try container.encode("last", forKey: .c)
            try container.encode("again", forKey: .c)  // the last write wins, as in JSONEncoder
        }
    }

    @Test("Numbers, optionals, dates, nested and hand-written containers match the text round trip")
    func matchesRoundTrip() throws {
        #expect(try JSONValue(encoding: Numbers()) == roundTrip(Numbers()))
        #expect(try JSONValue(encoding: Optionals()) == roundTrip(Optionals()))
        #expect(try JSONValue(encoding: ["x": Nothing()]) == roundTrip(["x": Nothing()]))
        #expect(throws: EncodingError.self) { try JSONValue(encoding: Nothing()) }
        #expect(throws: EncodingError.self) { try roundTrip(Nothing()) }
        #expect(try JSONValue(encoding: Containers()) == roundTrip(Containers()))
        #expect(try JSONValue(encoding: "fragment") == roundTrip("fragment"))
        #expect(try JSONValue(encoding: Optional<Int>.none) == roundTrip(Optional<Int>.none))
        let content: JSONValue = ["n": .number(4.0), "x": [.number(0.5), .null, "s", true]]
        #expect(try JSONValue(encoding: content) == roundTrip(content))
        #expect(try JSONValue(encoding: Numbers()) ["whole"] == .integer(12))
        #expect(try JSONValue(encoding: Numbers())["uint64"] == roundTrip(Numbers())["uint64"])
    }

    @Test("The host's messages match the text round trip: a timeline, notices, a reload result")
    func messagesMatch() throws {
        let entry = TimelineEntryPayload(
            date: Self.t0, relevance: EntryRelevance(score: 0.5, duration: 60), content: ["text": "Ada", "age": 36])
        let timeline = TimelinePayload(entries: [entry, entry], policy: .after(Self.t0 + 900))
        #expect(try JSONValue(encoding: timeline) == roundTrip(timeline))
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        let notices: [HostNotice] = [
            .reloadStarted(widget, at: Self.t0, charge: .exempt(.added), requestedAt: Self.t0),
            .reloadFinished(
                widget, at: Self.t0, budgeted: true, result: .success, durationMs: 12, footprintBytes: 1_048_576,
                detail: nil),
            .entryChanged(widget, at: Self.t0, entry: entry, source: .timeline),
        ]
        for notice in notices { #expect(try JSONValue(encoding: notice) == roundTrip(notice)) }
    }

    @Test("A NaN or an infinity is refused, as JSONEncoder refuses it")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: ["x": Double.infinity]) }
        #expect(throws: (any Error).self) { try roundTrip([Double.nan]) }
    }
}
