import Foundation
import SeededRandom
import Testing
@testable import WidgetHostProtocol

/// `WireEncoder` writes what Foundation's `JSONEncoder` (as `WireCoding.encoder` sets it up)
/// writes, byte for byte: every record, notice and reply the host stores or sends goes
/// through it. Each case is encoded both ways and compared.
@Suite("Wire encoder: JSONEncoder's bytes, written directly")
struct WireEncoderTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400)

    /// The fast path's bytes equal Foundation's (and the fast path took them: no fallback).
    private func same<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try WireEncoder.encode(value)
        let foundation = Array(try WireCoding.encoder.encode(value))
        #expect(
            String(decoding: fast, as: UTF8.self) == String(decoding: foundation, as: UTF8.self),
            sourceLocation: sourceLocation)
        #expect(try WireCoding.encodeBytes(value) == foundation, sourceLocation: sourceLocation)
    }

    private struct Numbers: Encodable {
        var whole = 12.0
        var half = 12.5
        var negativeZero = -0.0
        var huge = 1e300
        var big = 1e21
        var notQuiteBig = 123_456_789_012_345_680.0
        var small = 1e-7
        var third = 1.0 / 3
        var float: Float = 0.1
        var wholeFloat: Float = 3
        var smallFloat: Float = 1e-9
        var int8: Int8 = -8
        var int16: Int16 = .min
        var int32: Int32 = .max
        var uint8: UInt8 = 255
        var uint: UInt = 7
        var uint64 = UInt64.max
        var int64 = Int64.min
        var int = Int.max
        var zero = 0
        var list = [1.0, 2.5, -3.0]
        var flag = true
        var off = false
    }

    private struct Optionals: Encodable {
        var present: String? = "x"
        var absent: String? = nil
        var date: Date? = WireEncoderTests.t0
        var dates = [WireEncoderTests.t0, WireEncoderTests.t0 + 0.25]
        var nested: [String: [Int]] = ["a": [1, 2], "b": []]
        var empty: [String] = []
        var emptyObject: [String: Int] = [:]
        var optionals: [Int?] = [1, nil, 3]
        var doubleOptional: Int?? = .some(nil)
        var byNumber: [Int: String] = [10: "ten", 9: "nine", -1: "minus"]
    }

    private struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    private struct Containers: Encodable {
        enum Keys: String, CodingKey { case a, b, c, d }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try nested.encode(1, forKey: .b)
            try nested.encodeNil(forKey: .c)
            var again = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try again.encode("merged", forKey: .d)
            var list = container.nestedUnkeyedContainer(forKey: .b)
            try list.encode("x")
            try list.encode(WireEncoderTests.t0)
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(2.0)
            var object = list.nestedContainer(keyedBy: Keys.self)
            try object.encode(true, forKey: .a)
            try Nothing().encode(to: list.superEncoder())
            try container.encode("last", forKey: .c)
            try container.encode("again", forKey: .c)  // the last write wins, as in JSONEncoder
            try "super".encode(to: container.superEncoder())
            try 5.encode(to: container.superEncoder(forKey: .d))
            var second = encoder.container(keyedBy: Keys.self)  // the same object again
            try second.encode(Int8(3), forKey: .b)
        }
    }

    private class Base: Encodable {
        var name = "base"
        enum Keys: String, CodingKey { case name }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
        }
    }

    private final class Derived: Base {
        var extra = [1, 2]
        enum DerivedKeys: String, CodingKey { case extra }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DerivedKeys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }
    }

    private enum Shape: Encodable {
        case circle(radius: Double)
        case box(width: Int, height: Int?)
        case point
        case tagged(String, Date)
    }

    @Test("Numbers, optionals, dates, dictionaries and hand-written containers")
    func values() throws {
        try same(Numbers())
        try same(Optionals())
        try same(["x": Nothing()])
        try same([Nothing(), Nothing()])
        try same(Containers())
        try same(Derived())
        try same([Shape.circle(radius: 2), .box(width: 3, height: nil), .box(width: 1, height: 2), .point, .tagged("t", Self.t0)])
        try same("fragment")
        try same(42)
        try same(Optional<Int>.none)
        try same(Self.t0)
        try same([[[Int]]]([[[]], [[1]]]))
    }

    @Test("Strings: every control character, quotes, backslashes, slashes and non-ASCII text as they are")
    func strings() throws {
        var all = ""
        for scalar in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        try same([all, "\"quoted\" \\ back/slash", "Ada Lovelace 🎂 née", "e\u{301} ü ß 中文", "", "\u{7f}\u{80}\u{2028}"])
        try same([all: 1, "/": 2])
    }

    @Test("Keys sort by their UTF-8 bytes, as JSONEncoder sorts them")
    func keyOrder() throws {
        let keys = ["b", "a", "B", "é", "e", "10", "9", "", "aa", "a ", "Z", "_", "ß", "🎂", "a\u{0}b", "~"]
        try same(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }))
        let content = JSONValue.object(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.string($0)) }))
        try same(content)
        var large: [String: Int] = [:]
        for index in 0..<300 { large["k\(index * 7919 % 1000)"] = index }
        try same(large)
        try same(JSONValue.object(large.mapValues { .integer($0) }))
    }

    @Test("Random content: nested objects, arrays, numbers and strings", arguments: 0..<4)
    func randomContent(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed + 1)
        for _ in 0..<200 { try same(Self.randomValue(&generator, depth: 0)) }
    }

    @Test("The host's messages: a timeline, notices, a JSON-RPC line")
    func messages() throws {
        let entry = TimelineEntryPayload(
            date: Self.t0, relevance: EntryRelevance(score: 0.5, duration: 60), content: ["text": "Ada", "age": 36])
        let timeline = TimelinePayload(entries: [entry, entry], policy: .after(Self.t0 + 900))
        try same(timeline)
        try same(TimelinePayload(entries: [entry], policy: .atEnd))
        try same(TimelinePayload(entries: [entry], policy: .never))
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        let notices: [HostNotice] = [
            .reloadStarted(widget, at: Self.t0, charge: .exempt(.added), requestedAt: Self.t0),
            .reloadStarted(widget, at: Self.t0, charge: .budgeted, requestedAt: Self.t0 - 1.5),
            .reloadFinished(
                widget, at: Self.t0, budgeted: true, result: .success, durationMs: 12, footprintBytes: 1_048_576,
                detail: nil),
            .reloadFinished(
                widget, at: Self.t0, budgeted: false, result: .timedOut, durationMs: 5000.25, footprintBytes: nil,
                detail: "no reply within 5 s"),
            .entryChanged(widget, at: Self.t0, entry: entry, source: .timeline),
        ]
        for notice in notices {
            try same(notice)
            let line = try JSONRPCMessage.notificationLine(method: "event", params: notice)
            #expect(line.last == UInt8(ascii: "\n"))
        }
        try same(JSONRPCMessage.request(id: .number(3), method: "timeline/get", params: ["kind": "K", "n": 1.5]).jsonValue())
        try same(JSONRPCMessage.response(id: .string("initialize-1"), result: .null).jsonValue())
        try same(JSONRPCMessage.errorResponse(id: nil, error: .lineTooLong(limit: 10)).jsonValue())
    }

    @Test("What it leaves to Foundation: URLs, Data, Decimals, NaN, a top-level value that encodes nothing")
    func leftToFoundation() throws {
        #expect(throws: WireEncoder.Unsupported.self) { try WireEncoder.encode(["u": URL(string: "https://example.org/a")!]) }
        #expect(throws: WireEncoder.Unsupported.self) { try WireEncoder.encode([Data([1, 2, 3])]) }
        #expect(throws: WireEncoder.Unsupported.self) { try WireEncoder.encode([Decimal(string: "1.25")!]) }
        #expect(throws: WireEncoder.Unsupported.self) { try WireEncoder.encode([Double.nan]) }
        #expect(throws: WireEncoder.Unsupported.self) { try WireEncoder.encode(Nothing()) }
        // …and WireCoding then writes Foundation's bytes, or throws Foundation's error.
        let url = ["u": URL(string: "https://example.org/a")!]
        #expect(try WireCoding.encodeBytes(url) == Array(WireCoding.encoder.encode(url)))
        #expect(try WireCoding.encodeBytes([Data([1, 2, 3])]) == Array(WireCoding.encoder.encode([Data([1, 2, 3])])))
        #expect(throws: EncodingError.self) { try WireCoding.encode([Double.infinity]) }
        #expect(throws: EncodingError.self) { try WireCoding.encode(Nothing()) }
    }

    // MARK: Random values

    static func randomValue(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
        switch generator.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .integer(Int(bitPattern: UInt(generator.next())) >> Int(generator.next() % 64))
        case 3:
            let mantissa = Double(generator.next() % 1_000_000_007) / Double(generator.next() % 1000 + 1)
            let exponent = Double(Int(generator.next() % 40) - 20)
            return .number((generator.next() % 2 == 0 ? 1 : -1) * mantissa * pow(10, exponent))
        case 4: return .string(randomString(&generator))
        case 5:
            return .array((0..<Int(generator.next() % 5)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(generator.next() % 6) { members[randomString(&generator)] = randomValue(&generator, depth: depth + 1) }
            return .object(members)
        }
    }

    static func randomString(_ generator: inout SeededGenerator) -> String {
        let alphabet = Array("aAbB09 _-/\\\"\n\t\u{1}\u{1f}éß中🎂".unicodeScalars)
        var text = String.UnicodeScalarView()
        for _ in 0..<Int(generator.next() % 8) { text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
        return String(text)
    }
}
