import Foundation
import SeededRandom
import Testing

@testable import WidgetHostProtocol

/// `JSONValueDecoder` against Foundation's round trip on the protocol's own types: every
/// example of both OpenRPC documents as its method's params and result types, then the same
/// examples mutated at random (wrong types, missing keys, nulls, numbers at the edges, bad
/// dates): both refuse with the same error, or both accept with the same value.
@Suite("JSONValueDecoder on every wire type: documented examples and random mutations")
struct JSONValueDecoderWireTests {
    /// One example: the type it decodes as, and the value.
    struct Case {
        var name: String
        var type: any Codable.Type
        var value: JSONValue
    }

    static func cases() throws -> [Case] {
        var cases: [Case] = []
        for (file, types) in [
            ("openrpc.json", { (name: String) in ControlMethod(rawValue: name)?.wireTypes }),
            ("openrpc-extension.json", { (name: String) in ExtensionMethod(rawValue: name)?.wireTypes }),
        ] {
            for method in try OpenRPCDocumentTests.load(file).methods {
                let wire = try #require(types(method.name), "\(method.name)")
                for example in method.examples {
                    if let result = example.result {
                        cases.append(Case(name: "\(method.name) \(example.name) result", type: wire.result, value: result))
                    }
                    switch wire.params {
                    case .none: break
                    case .optional(let type), .required(let type):
                        cases.append(
                            Case(name: "\(method.name) \(example.name) params", type: type, value: .object(example.params)))
                    }
                }
            }
        }
        let t0 = Date(timeIntervalSince1970: 1_771_142_400.25)
        let entry = TimelineEntryPayload(
            date: t0, relevance: EntryRelevance(score: 0.5, duration: 60), content: ["text": "Ada", "age": 36, "h": 1.5])
        let widget = NoticeWidget(id: "w1", kind: "K", extension: "e.x")
        let notices: [HostNotice] = [
            .reloadStarted(widget, at: t0, charge: .exempt(.added), requestedAt: t0),
            .reloadFinished(
                widget, at: t0, budgeted: true, result: .success, durationMs: 12, footprintBytes: 1_048_576, detail: nil),
            .entryChanged(widget, at: t0, entry: entry, source: .timeline),
        ]
        for (index, notice) in notices.enumerated() {
            cases.append(Case(name: "notice \(index)", type: HostNotice.self, value: try JSONValue(encoding: notice)))
        }
        cases.append(
            Case(
                name: "timeline", type: TimelinePayload.self,
                value: try JSONValue(encoding: TimelinePayload(entries: [entry, entry], policy: .after(t0 + 900)))))
        cases.append(Case(name: "JSON-RPC error", type: JSONRPCError.self, value: ["code": -32602, "message": "m", "data": [1]]))
        return cases
    }

    private static func compare(_ type: any Codable.Type, _ value: JSONValue)
        -> (foundation: DecoderComparison.Outcome, ours: DecoderComparison.Outcome)
    {
        func open<T: Codable>(_ type: T.Type) -> (DecoderComparison.Outcome, DecoderComparison.Outcome) {
            DecoderComparison.outcomes(T.self, value)
        }
        return open(type)
    }

    @Test("Every documented example decodes to the same value both ways")
    func examples() throws {
        let cases = try Self.cases()
        #expect(cases.count > 60)
        for example in cases {
            let (foundation, ours) = Self.compare(example.type, example.value)
            #expect(ours == foundation, "\(example.name)")
            if case .error = foundation { Issue.record("\(example.name) does not decode: \(foundation)") }
        }
    }

    // MARK: Mutations

    /// Where a node sits in a value: object keys and array indices.
    enum Step: Hashable {
        case key(String)
        case index(Int)
    }

    static func paths(in value: JSONValue, at path: [Step] = []) -> [[Step]] {
        var found = [path]
        switch value {
        case .object(let members):
            for (key, member) in members { found += paths(in: member, at: path + [.key(key)]) }
        case .array(let items):
            for (index, item) in items.enumerated() { found += paths(in: item, at: path + [.index(index)]) }
        default: break
        }
        return found
    }

    /// `value` with the node at `path` replaced by what `change` makes of it (nil: removed).
    static func changing(_ value: JSONValue, at path: ArraySlice<Step>, _ change: (JSONValue) -> JSONValue?) -> JSONValue? {
        guard let step = path.first else { return change(value) }
        switch (step, value) {
        case (.key(let key), .object(var members)):
            members[key] = members[key].flatMap { changing($0, at: path.dropFirst(), change) }
            return .object(members)
        case (.index(let index), .array(var items)):
            if let changed = changing(items[index], at: path.dropFirst(), change) {
                items[index] = changed
            } else {
                items.remove(at: index)
            }
            return .array(items)
        default: return value
        }
    }

    static let replacements: [JSONValue] = [
        .null, true, false, 0, -1, 1, 7, 255, 256, 65_536, .integer(Int.max), .integer(Int.min), .integer(Int(Int32.max) + 1),
        .number(0.5), .number(-0.0), .number(12.0), .number(1e300), .number(1.8e19), .number(1e-50), "", "x", "systemSmall",
        "2026-02-15T08:00:00Z", "2026-02-15T08:00:00.123456+05:30", "2026-02-30T08:00:00Z", "2026-02-15", "not a date",
        "timeline", "success", "after", [], [1], ["x"], [:], ["type": "never"], ["a": nil],
    ]

    static func mutate(_ value: JSONValue, using generator: inout SeededGenerator) -> JSONValue {
        let paths = paths(in: value)
        let path = paths.randomElement(using: &generator)!
        let changed: JSONValue?
        switch Int.random(in: 0..<10, using: &generator) {
        case 0 where !path.isEmpty:
            changed = changing(value, at: path[...]) { _ in nil }  // a member or an element removed
        case 1:
            changed = changing(value, at: path[...]) { node in
                guard case .object(var members) = node else { return node }
                members["unknown"] = 1  // a member no one reads
                return .object(members)
            }
        case 2:
            changed = changing(value, at: path[...]) { node in  // a date nudged out of shape
                guard case .string(let text) = node, text.count > 10 else { return .null }
                return .string(String(text.dropLast(Int.random(in: 1...3, using: &generator))))
            }
        default:
            let replacement = replacements.randomElement(using: &generator)!
            changed = changing(value, at: path[...]) { _ in replacement }
        }
        return changed ?? .null
    }

    @Test("Random mutations of every example: both refuse with the same error, or both give the same value")
    func mutations() throws {
        var generator = SeededGenerator(seed: 0x5EED_DEC0DE)
        var accepted = 0
        var refused = 0
        for example in try Self.cases() {
            for _ in 0..<30 {
                var value = example.value
                for _ in 0..<Int.random(in: 1...3, using: &generator) { value = Self.mutate(value, using: &generator) }
                let (foundation, ours) = Self.compare(example.type, value)
                #expect(ours == foundation, "\(example.name) mutated: \(value)")
                if case .value = foundation { accepted += 1 } else { refused += 1 }
            }
        }
        // Both kinds of outcome were exercised.
        #expect(accepted > 200)
        #expect(refused > 500)
    }
}
