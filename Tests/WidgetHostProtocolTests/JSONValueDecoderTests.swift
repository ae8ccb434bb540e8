import Foundation
import Testing

@testable import WidgetHostProtocol

/// `JSONValue.decode(as:)` reads the value itself (`JSONValueDecoder`) where it used to encode
/// it and run Foundation's `JSONDecoder`: every value and every refusal must stay what that
/// round trip gave, errors included (the daemon's and the SDK's -32602 replies quote them).
@Suite("JSONValueDecoder: Foundation's values and errors, without the bytes")
struct JSONValueDecoderTests {
    private func expectSame(
        _ outcomes: (foundation: DecoderComparison.Outcome, ours: DecoderComparison.Outcome), _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcomes.ours == outcomes.foundation, "\(what)", sourceLocation: sourceLocation)
    }

    /// Number texts at every edge, as the line parser gives them (`.integer` or `.number`),
    /// and numbers no parse gives but a `JSONValue` can hold.
    static let numbers: [JSONValue] = {
        let texts = [
            "0", "-0", "12", "12.0", "1e2", "12.5", "-1", "127", "128", "-128", "-129", "255", "256", "300",
            "32767", "32768", "65535", "65536", "2147483647", "2147483648", "4294967295", "4294967296",
            "9007199254740992", "9007199254740993", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
            "1.8e19", "9.2233720368547758e18", "1e300", "-1e300", "1e-300", "0.1", "1e-7", "3.4e38", "3.5e38",
            "1e-40", "1e-45", "1e-46", "-1e-50", "3.4028235e38", "3.40282356e38", "3.4028236e38",
            "123456789012345678901234567890", "1.7976931348623157e308", "5e-324", "0.5", "-0.5",
        ]
        var values = texts.map { text -> JSONValue in
            guard case .array(let items) = try! WireCoding.decode(JSONValue.self, from: Data("[\(text)]".utf8)) else {
                fatalError(text)
            }
            return items[0]
        }
        values += [.number(12.0), .number(-0.0), .number(1e16), .number(9.1e18), .number(9.3e18), .number(-9.3e18)]
        values += [.number(18_446_744_073_709_551_616.0), .number(Double(Int.max)), .number(0.1 + 0.2)]
        return values
    }()

    static let others: [JSONValue] = [
        .null, true, false, "", "x", "12", "2026-02-15T08:00:00Z", "2026-02-15T08:00:00.25+01:00",
        "2026-02-30T08:00:00Z", "https://example.com/a b", "AAEC+g==", "3.14159", [], [1, 2], ["a", nil],
        [:], ["a": 1], ["10": "ten", "2": "two"], ["k": ["deep": [.number(2.0), nil]]],
    ]

    private struct Decimals: Codable { var url: URL?; var data: Data?; var decimal: Decimal? }

    /// `T` alone, as an array's element and as an object's member.
    private func expectSame<T: Decodable>(_ type: T.Type, _ value: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSame(DecoderComparison.reflected(T.self, value), "\(T.self) \(value)", sourceLocation: sourceLocation)
        expectSame(
            DecoderComparison.reflected([T].self, [value, value]), "[\(T.self)] \(value)", sourceLocation: sourceLocation)
        expectSame(
            DecoderComparison.reflected([String: T].self, ["k": value]), "[String: \(T.self)] \(value)",
            sourceLocation: sourceLocation)
    }

    @Test("Scalars of every type from every kind of value: the same value, or the same error")
    func scalars() {
        for value in Self.numbers + Self.others {
            expectSame(Int.self, value)
            expectSame(Int8.self, value)
            expectSame(Int16.self, value)
            expectSame(Int32.self, value)
            expectSame(Int64.self, value)
            expectSame(UInt.self, value)
            expectSame(UInt8.self, value)
            expectSame(UInt16.self, value)
            expectSame(UInt32.self, value)
            expectSame(UInt64.self, value)
            expectSame(Double.self, value)
            expectSame(Float.self, value)
            expectSame(Bool.self, value)
            expectSame(String.self, value)
            expectSame(Date.self, value)
            expectSame(JSONValue.self, value)
            expectSame(Int?.self, value)
            expectSame(Date?.self, value)
            expectSame([Int].self, value)
            expectSame([Int?].self, value)
            expectSame([String: JSONValue].self, value)
            expectSame([Int: String].self, value)
            expectSame([[String]].self, value)
            expectSame(URL.self, value)
            expectSame(Data.self, value)
            expectSame(Decimal.self, value)
        }
        // Keys that read as numbers, one bad member: the same error, at `[10]` in both.
        expectSame(DecoderComparison.reflected([String: Int].self, ["b": 2, "10": "z", "é": 1]), "[String: Int]")
        expectSame(DecoderComparison.reflected([String: [Int]].self, ["2": [1, 2], "10": [nil]]), "nested members")
        expectSame(DecoderComparison.reflected([Int: String].self, ["2": "1", "10": 2]), "[Int: String]")
        // Several bad members: Foundation names one of them, which one varies from run to run
        // (hash order); this decoder names the first in the text's order, every time.
        let members: JSONValue = ["b": "x", "a": "y", "10": "z", "é": 1, "B": nil]
        for type in [[String: Int].self, [Int: Int].self] as [any Decodable.Type] {
            func open<T: Decodable>(_ type: T.Type) -> (DecoderComparison.Outcome, DecoderComparison.Outcome) {
                DecoderComparison.reflected(T.self, members)
            }
            let (foundation, ours) = open(type)
            guard case .error = foundation, case .error = ours else {
                Issue.record("\(type): \(foundation) / \(ours)")
                continue
            }
        }
        #expect(
            DecoderComparison.reflected([String: Int].self, members).ours
                == .error("typeMismatch Int at [10]: Expected to decode Int but found a string instead."))
        for value in Self.others {
            let object: JSONValue = ["url": value, "data": value, "decimal": value]
            expectSame(DecoderComparison.outcomes(Decimals.self, object), "Decimals \(object)")
        }
    }

    @Test("A number that does not fit is refused at its own path, naming the number and the type")
    func doesNotFit() throws {
        let value: JSONValue = ["list": [1, 300]]
        struct Bytes: Decodable { var list: [UInt8] }
        do {
            _ = try value.decode(as: Bytes.self)
            Issue.record("300 decoded as a UInt8")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["list", "Index 1"])
            #expect(context.debugDescription == "Parsed JSON number <300> does not fit in UInt8.")
        }
        #expect(throws: DecodingError.self) { try JSONValue.number(12.5).decode(as: Int.self) }
        #expect(throws: DecodingError.self) { try JSONValue.number(1e-50).decode(as: Float.self) }
        #expect(try JSONValue.number(1.8e19).decode(as: UInt64.self) == 18_000_000_000_000_000_000)
        #expect(try JSONValue.number(1e16).decode(as: Int.self) == 10_000_000_000_000_000)
        #expect(try JSONValue.number(12.0).decode(as: JSONValue.self) == .integer(12))
    }

    @Test("A NaN or an infinity (no parse gives one) is refused as encoding it was")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try JSONValue.number(.nan).decode(as: Double.self) }
        #expect(throws: EncodingError.self) { try JSONValue.array([.number(.infinity)]).decode(as: JSONValue.self) }
        #expect(throws: EncodingError.self) { try JSONValue.object(["k": .number(-.infinity)]).decode(as: [String: Int].self) }
    }

    // MARK: Containers

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads a value through every container call, and writes down what it saw: the
    /// decoded text is what the two decoders are compared on.
    private struct Walk: Decodable, CustomStringConvertible {
        var description: String

        init(from decoder: any Decoder) throws {
            var seen: [String] = ["path \(decoder.codingPath.map(\.stringValue))"]
            let keyed = try decoder.container(keyedBy: AnyKey.self)
            seen.append("keys \(keyed.allKeys.map(\.stringValue).sorted())")
            seen.append("contains a \(keyed.contains(AnyKey("a"))), nil a \((try? keyed.decodeNil(forKey: AnyKey("a"))).map(String.init(describing:)) ?? "throws")")
            seen.append("a? \(String(describing: try keyed.decodeIfPresent(Int.self, forKey: AnyKey("a"))))")
            seen.append("s? \(String(describing: try keyed.decodeIfPresent(String.self, forKey: AnyKey("s"))))")
            seen.append("d? \(String(describing: try keyed.decodeIfPresent(Date.self, forKey: AnyKey("d"))))")
            seen.append("j? \(String(describing: try keyed.decodeIfPresent(JSONValue.self, forKey: AnyKey("j"))))")
            var list = try keyed.nestedUnkeyedContainer(forKey: AnyKey("list"))
            seen.append("count \(String(describing: list.count)) path \(list.codingPath.map(\.stringValue))")
            seen.append("nil0 \(try list.decodeNil()) index \(list.currentIndex)")
            seen.append("first \(try list.decode(Int.self)) index \(list.currentIndex)")
            let inner = try list.nestedContainer(keyedBy: AnyKey.self)
            seen.append("inner x \(try inner.decode(String.self, forKey: AnyKey("x"))) at \(inner.codingPath.map(\.stringValue))")
            var deeper = try inner.nestedUnkeyedContainer(forKey: AnyKey("y"))
            seen.append("deeper \(try deeper.decode(Double.self)) \(try deeper.decode(Float.self)) end \(deeper.isAtEnd)")
            let superInList = try list.superDecoder()
            seen.append("super in list \(superInList.codingPath.map(\.stringValue)) \(try superInList.singleValueContainer().decode(Bool.self))")
            seen.append("end \(list.isAtEnd)")
            let superDecoder = try keyed.superDecoder()
            seen.append("super \(superDecoder.codingPath.map(\.stringValue)) nil \(try superDecoder.singleValueContainer().decodeNil())")
            let named = try keyed.superDecoder(forKey: AnyKey("s"))
            seen.append("super s \(named.codingPath.map(\.stringValue)) \(try named.singleValueContainer().decode(String.self))")
            let nested = try keyed.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("o"))
            seen.append("o.n \(try nested.decode(UInt8.self, forKey: AnyKey("n")))")
            seen.append("last \(try list.decode(Int.self))")
            var tail = try list.nestedUnkeyedContainer()
            seen.append("tail \(try tail.decode(Int.self)) \(tail.codingPath.map(\.stringValue))")
            description = seen.joined(separator: "; ")
        }
    }

    @Test("Keyed, unkeyed and single-value containers, super decoders and coding paths, as Foundation has them")
    func containers() {
        let good: JSONValue = [
            "a": nil, "s": "text", "d": "2026-02-15T08:00:00Z", "j": ["k": .number(2.0)], "super": nil,
            "list": [nil, 1, ["x": "in", "y": [0.5, 0.25]], true, 9, [2]], "o": ["n": 7],
        ]
        #expect(DecoderComparison.reflected(Walk.self, good).foundation == DecoderComparison.reflected(Walk.self, good).ours)
        if case .error(let error) = DecoderComparison.reflected(Walk.self, good).ours { Issue.record("\(error)") }
        // Each break of the walk, one at a time: the same error both ways.
        let breaks: [(String, JSONValue?)] = [
            ("a", 5), ("a", "x"), ("s", 5), ("s", nil), ("d", "2026-13-01T00:00:00Z"), ("d", 5), ("j", nil), ("list", nil),
            ("list", [:]), ("list", "x"), ("list", [nil]), ("list", [nil, 1]), ("list", [nil, 1, 5]),
            ("list", [nil, 1, nil]), ("list", [nil, 1, ["x": "in"]]), ("list", [nil, 1, ["x": "in", "y": nil]]),
            ("list", [nil, 1, ["x": "in", "y": [0.5]]]), ("list", [nil, 1, ["x": "in", "y": [0.5, 1e300]]]),
            ("list", [nil, 1, ["x": "in", "y": [0.5, 0.25]]]), ("list", [nil, 1, ["x": "in", "y": [0.5, 0.25]], nil]),
            ("list", [1, 1, ["x": "in", "y": [0.5, 0.25]], true]), ("list", [nil, "1", ["x": 1, "y": [0.5, 0.25]], true]),
            ("super", 1), ("o", nil), ("o", [:]), ("o", ["n": 256]), ("o", ["n": -1]), ("o", ["n": 7.5]), ("o", [1]),
            ("list", []), ("list", [nil, 1, ["x": "in", "y": [0.5, 0.25]], true, 9]),
            ("list", [nil, 1, ["x": "in", "y": [0.5, 0.25]], true, 9, 10]),
            ("list", [nil, 1, ["x": "in", "y": [0.5, 0.25]], true, 9, nil]),
            ("list", [nil, 1, ["x": "in", "y": [0.5, 0.25]], true, 9, []]),
        ]
        for (key, replacement) in breaks {
            guard case .object(var members) = good else { return }
            members[key] = replacement
            let value = JSONValue.object(members)
            let (foundation, ours) = DecoderComparison.reflected(Walk.self, value)
            #expect(ours == foundation, "\(key) = \(String(describing: replacement))")
        }
        for top: JSONValue in [nil, 5, "x", [], [1]] {
            let (foundation, ours) = DecoderComparison.reflected(Walk.self, top)
            #expect(ours == foundation, "\(top)")
        }
    }
}
