import Foundation
import Testing
import WidgetHostProtocol

/// `WireCoding.encode` writes with its own encoder (issue 16); the bytes must be exactly what
/// Foundation's `JSONEncoder` configured as `WireCoding.encoder` writes: records stored
/// before it, the harness's byte-identical reports and every golden line depend on it.
@Suite("WireCoding.encode writes Foundation's bytes for every documented example")
struct WireEncoderExampleTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400.25)

    private func expectSameBytes<T: Encodable>(
        _ value: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let foundation = String(decoding: try WireCoding.encoder.encode(value), as: UTF8.self)
        let ours = String(decoding: try WireCoding.encode(value), as: UTF8.self)
        #expect(ours == foundation, comment, sourceLocation: sourceLocation)
    }

    private struct Numbers: Encodable {
        var whole = 12.0
        var half = 12.5
        var negativeZero = -0.0
        var huge = 1e300
        var large = 1e16
        var exact = 1_234_567_890_123.0
        var small = 1e-7
        var tiny = Double.leastNonzeroMagnitude
        var float: Float = 0.1
        var wholeFloat: Float = 3
        var int8: Int8 = -8
        var int16: Int16 = 300
        var int32: Int32 = -70_000
        var uint = UInt.max
        var uint8: UInt8 = 255
        var uint16: UInt16 = 65_535
        var uint32: UInt32 = 4_000_000_000
        var uint64 = UInt64.max
        var int64 = Int64.min
        var list = [1.0, 2.5, -3.0]
        var floats: [Float] = [0.5, 1e10]
        var flag = false
        var optionalDouble: Double? = 0.25
    }

    private struct Optionals: Encodable {
        var present: String? = "x"
        var absent: String? = nil
        var date: Date? = WireEncoderExampleTests.t0
        var dates: [Date?] = [nil, WireEncoderExampleTests.t0]
        var nested: [String: [Int]] = ["b": [1, 2], "a": [], "B": [3], "é": [4], "aa": [5]]
        var byInt: [Int: String] = [10: "ten", 2: "two"]
        var empty: [String] = []
        var emptyObject: [String: Int] = [:]
        var url = URL(string: "https://example.com/a b?c=d")
        var data = Data([0, 1, 2, 250])
        var decimal = Decimal(string: "3.14159")
    }

    private struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    private struct Containers: Encodable {
        enum Keys: String, CodingKey { case a, b, c, d, e }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try nested.encode(1, forKey: .b)
            try nested.encodeNil(forKey: .c)
            var list = container.nestedUnkeyedContainer(forKey: .b)
            try list.encode("x")
            try list.encode(WireEncoderExampleTests.t0)
            try list.encodeNil()
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(2.0)
            var innerObject = list.nestedContainer(keyedBy: Keys.self)
            try innerObject.encode(true, forKey: .e)
            try list.encode(Nothing())
            try container.encode("last", forKey: .c)
            try container.encode("again", forKey: .c)  // the last write wins, as in JSONEncoder
            try container.encode(Nothing(), forKey: .d)
            var single = container.superEncoder(forKey: .e).singleValueContainer()
            try single.encode([3, 4])
        }
    }

    private struct Single: Encodable {
        let value: JSONValue
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    @Test("Numbers of every type, optionals, dates, URLs, data, decimals and dictionaries")
    func scalars() throws {
        try expectSameBytes(Numbers())
        try expectSameBytes(Optionals())
        try expectSameBytes(Containers())
        try expectSameBytes(["x": Nothing()])
        try expectSameBytes([Nothing()])
        try expectSameBytes("fragment")
        try expectSameBytes(42)
        try expectSameBytes(Optional<Int>.none)
        try expectSameBytes(Self.t0)
        try expectSameBytes([Self.t0])
        try expectSameBytes(Single(value: ["b": 1, "a": [.number(0.5), .null, "s", true]]))
    }

    @Test(
        "Strings: quotes, backslashes, every control byte, slashes, Unicode",
        arguments: [
            "plain", "", "quote \" and back\\slash", "a/b</script>", "tab\tnew\nline\rreturn",
            "\u{8}\u{c}\u{0}\u{1}\u{f}\u{10}\u{1f}\u{7f}", "é ü 日本 🎉 \u{2028}\u{2029}", "\\u0041",
            String(repeating: "long text ", count: 100),
        ])
    func strings(text: String) throws {
        try expectSameBytes(text)
        try expectSameBytes([text: text])
        try expectSameBytes(JSONValue.object([text: .string(text)]))
    }

    @Test("JSONValue content: integers, doubles, nesting, and keys sorted by their UTF-8 bytes")
    func content() throws {
        let content: JSONValue = [
            "n": .number(4.0), "m": .number(0.1), "big": .number(1e21), "neg": .integer(-7), "Z": "upper",
            "é": "accent", "a1": [1, 2, [3, ["deep": nil]]], "a": .object([:]), "b": .array([]), "flag": false,
            "10": 10, "9": 9, "": "empty key",
        ]
        try expectSameBytes(content)
        try expectSameBytes(["content": content, "list": [content, content]])
    }

    @Test("The host's messages: a timeline, notices, a reload result, a JSON-RPC line")
    func messages() throws {
        let entry = TimelineEntryPayload(
            date: Self.t0, relevance: EntryRelevance(score: 0.5, duration: 60), content: ["text": "Ada", "age": 36])
        try expectSameBytes(TimelinePayload(entries: [entry, entry], policy: .after(Self.t0 + 900)))
        try expectSameBytes(TimelinePayload(entries: [entry], policy: .atEnd))
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        let notices: [HostNotice] = [
            .reloadStarted(widget, at: Self.t0, charge: .exempt(.added), requestedAt: Self.t0),
            .reloadFinished(
                widget, at: Self.t0, budgeted: true, result: .success, durationMs: 12, footprintBytes: 1_048_576,
                detail: nil),
            .entryChanged(widget, at: Self.t0, entry: entry, source: .timeline),
        ]
        for notice in notices { try expectSameBytes(notice) }
        let message = JSONRPCMessage.response(id: .number(7), result: try JSONValue(encoding: notices[1]))
        try expectSameBytes(try message.jsonValue())
    }

    @Test("Every example of both OpenRPC documents, as its Swift params and result types")
    func documentExamples() throws {
        func check<T: Codable>(_ type: T.Type, _ value: JSONValue, _ what: String) throws {
            try expectSameBytes(try value.decode(as: T.self), "\(what)")
        }
        var checked = 0
        for (file, types) in [
            ("openrpc.json", { (name: String) in ControlMethod(rawValue: name)?.wireTypes }),
            ("openrpc-extension.json", { (name: String) in ExtensionMethod(rawValue: name)?.wireTypes }),
        ] {
            let (document, methods) = try OpenRPCDocumentTests.load(file)
            try expectSameBytes(JSONValue.object(document), "\(file) as a JSONValue")
            for method in methods {
                let wire = try #require(types(method.name), "\(method.name)")
                for example in method.examples {
                    if let result = example.result {
                        try check(wire.result, result, "\(method.name) \(example.name) result")
                        checked += 1
                    }
                    switch wire.params {
                    case .none: break
                    case .optional(let type), .required(let type):
                        try check(type, .object(example.params), "\(method.name) \(example.name) params")
                    }
                }
            }
        }
        #expect(checked > 40)
    }

    @Test("What Foundation refuses is refused: NaN, infinities, a top-level value that encodes nothing")
    func refusals() {
        #expect(throws: EncodingError.self) { try WireCoding.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try WireCoding.encode(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { try WireCoding.encode(JSONValue.array([.number(-.infinity)])) }
        #expect(throws: EncodingError.self) { try WireCoding.encode([Float.nan]) }
        #expect(throws: EncodingError.self) { try WireCoding.encode(Nothing()) }
        #expect(throws: (any Error).self) { try WireCoding.encoder.encode(Nothing()) }
    }
}
