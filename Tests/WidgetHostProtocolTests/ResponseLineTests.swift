import Foundation
import Testing
import WidgetHostProtocol

/// `JSONRPCMessage.responseLine(id:result:)` writes an extension's reply straight from its
/// payload: the same bytes as the response built through `JSONValue` and encoded.
@Suite("A response line straight from its result")
struct ResponseLineTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400.25)

    static func viaJSONValue(id: JSONRPCID, _ result: some Encodable) throws -> [UInt8] {
        Array(try JSONRPCMessage.response(id: id, result: JSONValue(encoding: result)).encodedLine())
    }

    static let timeline = TimelinePayload(
        entries: [
            TimelineEntryPayload(
                date: t0, relevance: EntryRelevance(score: 0.5, duration: 60),
                content: ["names": ["Ada", "Grace \"the\" / admiral"], "count": 2, "ratio": 1.5, "none": .null],
                view: ViewArchive(
                    family: .systemSmall,
                    root: ViewNode(
                        .vstack(
                            alignment: "center", spacing: 4,
                            children: [ViewNode(.text([ArchiveTextRun(.string("Done"))]))])))),
            TimelineEntryPayload(date: t0 + 3600, content: .null),
        ],
        policy: .after(t0 + 7200))

    @Test("A timeline with content, relevance and a view, an entry, an initialize result: the same bytes both ways", arguments: [
        JSONRPCID.number(7), .string("initialize-1"), .number(-3),
    ])
    func sameBytes(id: JSONRPCID) throws {
        let line = try JSONRPCMessage.responseLine(id: id, result: Self.timeline)
        #expect(String(decoding: line, as: UTF8.self) == String(decoding: try Self.viaJSONValue(id: id, Self.timeline), as: UTF8.self))
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)

        let entry = Self.timeline.entries[0]
        #expect(try JSONRPCMessage.responseLine(id: id, result: entry) == Self.viaJSONValue(id: id, entry))

        let initialize = InitializeResult(
            widgets: [
                WidgetDescriptor(
                    kind: "BirthdayHomeWidget", displayName: "Birthdays", description: "Upcoming birthdays",
                    supportedFamilies: [.systemSmall, .systemMedium])
            ],
            pipelining: true)
        #expect(try JSONRPCMessage.responseLine(id: id, result: initialize) == Self.viaJSONValue(id: id, initialize))
    }

    @Test("A result JSON cannot hold is refused, as it is through JSONValue")
    func nan() {
        let entry = TimelineEntryPayload(date: Self.t0, relevance: EntryRelevance(score: .nan), content: .null)
        #expect(throws: (any Error).self) { try JSONRPCMessage.responseLine(id: .number(1), result: entry) }
        #expect(throws: (any Error).self) { try Self.viaJSONValue(id: .number(1), entry) }
    }
}
