import Foundation
import Testing
import WidgetHostProtocol

/// A request's line written straight from its params must be the line
/// `JSONRPCMessage.request(…).encodedLine()` writes: the same bytes for every value the host
/// sends, and params that decode the same where `JSONValue(encoding:)` writes a whole number
/// as an integer that the encoder writes in exponent form.
@Suite("A request's line, written from its params")
struct JSONRPCRequestLineTests {
    private func longWay(id: Int, method: String, params: some Encodable) throws -> [UInt8] {
        Array(try JSONRPCMessage.request(id: .number(id), method: method, params: JSONValue(encoding: params)).encodedLine())
    }

    private func expectSameLine<P: Encodable>(id: Int, method: String, _ params: P, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let direct = JSONRPCRequestLine.bytes(id: id, method: method, params: params)
        let expected = try longWay(id: id, method: method, params: params)
        #expect(
            direct == expected, "\(String(decoding: direct ?? [], as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    static let environments: [ViewEnvironment?] = [
        nil, ViewEnvironment(),
        ViewEnvironment(
            colorScheme: .dark, widgetRenderingMode: .vibrant, showsWidgetContainerBackground: false, displayScale: 2.5,
            locale: "fr_FR", dynamicTypeSize: "accessibility5"),
        ViewEnvironment(locale: "en_GB"), ViewEnvironment(widgetRenderingMode: .accented, dynamicTypeSize: "xSmall"),
    ]

    @Test("placeholder/get, snapshot/get and timeline/get: the same bytes")
    func widgetRequests() throws {
        for (index, environment) in Self.environments.enumerated() {
            for family in WidgetFamily.allCases {
                try expectSameLine(
                    id: index, method: "placeholder/get", PlaceholderParams(kind: "K \"q\"", family: family, environment: environment))
                try expectSameLine(
                    id: 1_000 + index, method: "snapshot/get",
                    SnapshotParams(
                        kind: "Kind", family: family, isPreview: index == 1, environment: environment,
                        configuration: index == 2 ? ["city": .string("Zürich\n"), "n": .integer(-4)] : nil))
                try expectSameLine(
                    id: Int.max - index, method: "timeline/get",
                    TimelineParams(
                        kind: "BenchWidget", family: family, widgetId: "w\(index)",
                        now: Date(timeIntervalSince1970: 1_771_113_600.25 + Double(index)), environment: environment,
                        configuration: index == 0 ? nil : ["ratio": .number(0.5), "whole": .number(3), "on": .bool(true), "none": .null]))
            }
        }
    }

    @Test("A whole Double of 16 digits or more: another text, the same params decoded")
    func largeWholeNumbers() throws {
        let params = PlaceholderParams(kind: "K", family: .systemSmall, environment: ViewEnvironment(displayScale: 1e16))
        let direct = try #require(JSONRPCRequestLine.bytes(id: 1, method: "placeholder/get", params: params))
        let expected = try longWay(id: 1, method: "placeholder/get", params: params)
        #expect(direct != expected, "if the texts agree, the doc comments overstate the difference")
        struct Line: Decodable { var params: PlaceholderParams }
        // (ViewEnvironment's decoder clamps the scale; both texts are clamped alike.)
        #expect(try WireCoding.decode(Line.self, from: Data(direct)).params == WireCoding.decode(Line.self, from: Data(expected)).params)
        struct Number: Decodable { var params: Double }
        let number = try #require(JSONRPCRequestLine.bytes(id: 2, method: "m", params: 1e16))
        #expect(try WireCoding.decode(Number.self, from: Data(number)).params == 1e16)
        #expect(try WireCoding.decode(Number.self, from: Data(longWay(id: 2, method: "m", params: 1e16))).params == 1e16)
    }

    @Test("The params written member by member have exactly the stored properties written")
    func storedProperties() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label).sorted() }
        #expect(labels(PlaceholderParams(kind: "K", family: .systemSmall)) == ["environment", "family", "kind"])
        #expect(
            labels(TimelineParams(kind: "K", family: .systemSmall, widgetId: "w1", now: Date()))
                == ["configuration", "environment", "family", "kind", "now", "widgetId"])
        #expect(
            labels(ViewEnvironment())
                == ["colorScheme", "displayScale", "dynamicTypeSize", "locale", "showsWidgetContainerBackground", "widgetRenderingMode"])
    }

    @Test("A display scale JSON cannot hold gives no line")
    func notANumber() {
        let params = PlaceholderParams(kind: "K", family: .systemSmall, environment: ViewEnvironment(displayScale: .nan))
        #expect(JSONRPCRequestLine.bytes(id: 1, method: "placeholder/get", params: params) == nil)
        let timeline = TimelineParams(
            kind: "K", family: .systemSmall, widgetId: "w1", now: Date(), environment: ViewEnvironment(displayScale: .infinity))
        #expect(JSONRPCRequestLine.bytes(id: 1, method: "timeline/get", params: timeline) == nil)
    }

    @Test("Params the encoder cannot write here give no line (the caller sends them the long way)")
    func refused() {
        struct Odd: Encodable { var value = Double.nan }
        #expect(JSONRPCRequestLine.bytes(id: 1, method: "m", params: Odd()) == nil)
        struct Link: Encodable { var url = URL(fileURLWithPath: "/tmp") }
        #expect(JSONRPCRequestLine.bytes(id: 1, method: "m", params: Link()) == nil)
    }
}
