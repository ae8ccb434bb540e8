import Foundation
import Testing
@testable import WidgetHostProtocol

/// The payloads `WireEncoder` writes without `Encoder` (`WireEncoder+Payloads`): the same
/// bytes as `JSONEncoder`, every optional present and absent, and a guard that fails when one
/// of these types gains a stored property the direct writer would leave out.
@Suite("Wire encoder: timelines, entries and the catalog, written directly")
struct WireEncoderPayloadTests {
    static let t0 = Date(timeIntervalSince1970: 1_771_142_400.125)

    private func same<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try WireEncoder.payloadItem(value) != nil, sourceLocation: sourceLocation)
        let fast = try WireEncoder.encode(value)
        let foundation = Array(try WireCoding.encoder.encode(value))
        #expect(
            String(decoding: fast, as: UTF8.self) == String(decoding: foundation, as: UTF8.self),
            sourceLocation: sourceLocation)
    }

    static let view = ViewArchive(
        family: .systemMedium,
        root: ViewNode(
            .vstack(
                alignment: "leading", spacing: 2,
                children: [
                    ViewNode(.text([ArchiveTextRun(.string("Ada \"the\" first\n"))])),
                    ViewNode(.text([ArchiveTextRun(.string("✓ / done"))])),
                ])))

    static let entries = [
        TimelineEntryPayload(date: t0, content: .null),
        TimelineEntryPayload(
            date: t0 + 0.5, relevance: EntryRelevance(score: 0.25), content: ["names": ["Ada", "Grace"], "n": 2, "x": 1.5]),
        TimelineEntryPayload(
            date: t0 + 60, relevance: EntryRelevance(score: 3, duration: 900), content: "text", view: view),
        TimelineEntryPayload(date: t0 + 120, content: [:], view: view),
    ]

    @Test("Entries with and without relevance, duration, content and view")
    func entries() throws {
        for entry in Self.entries { try same(entry) }
        try same(EntryRelevance(score: -0.0))
        try same(EntryRelevance(score: 1e-7, duration: 1e21))
    }

    @Test("Timelines with each policy, empty and full")
    func timelines() throws {
        for policy in [TimelinePolicy.atEnd, .never, .after(Self.t0 + 3600)] {
            try same(policy)
            try same(TimelinePayload(entries: Self.entries, policy: policy))
            try same(TimelinePayload(entries: [], policy: policy))
        }
    }

    @Test("The catalog: plain and configurable kinds, controls, activities and pipelining present and absent")
    func catalog() throws {
        let schema = IntentSchema(
            type: "SelectWidgetIntent", title: "Select Widget",
            parameters: [
                IntentParameterSchema(name: "style", title: "Style", type: .enum, optional: false, default: .string("plain"))
            ])
        let widgets = [
            WidgetDescriptor(kind: "A", displayName: "Á \"b\"", description: "", supportedFamilies: []),
            WidgetDescriptor(
                kind: "B", displayName: "B", description: "d", supportedFamilies: WidgetFamily.allCases, intent: schema),
        ]
        for widget in widgets { try same(widget) }
        try same(InitializeResult(widgets: widgets))
        try same(InitializeResult(widgets: [], controls: [], activities: [], pipelining: false))
        try same(
            InitializeResult(
                widgets: widgets,
                controls: [ControlDescriptor(kind: "C", displayName: "C", description: "c", style: .toggle)],
                activities: ["PizzaDeliveryAttributes"], pipelining: true))
    }

    @Test("A NaN is still refused (Foundation's to report)")
    func nan() {
        #expect(throws: (any Error).self) {
            try WireCoding.encodeBytes(TimelineEntryPayload(date: Self.t0, relevance: EntryRelevance(score: .nan), content: .null))
        }
    }

    /// A stored property added to one of these types must be written by `WireEncoder+Payloads`
    /// too; this lists what it writes.
    @Test("Each type's stored properties are the ones the direct writer knows")
    func storedProperties() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        #expect(labels(Self.entries[0]) == ["date", "relevance", "content", "viewBox"])
        #expect(labels(TimelinePayload(entries: [], policy: .never)) == ["entries", "policy"])
        #expect(labels(EntryRelevance(score: 1)) == ["score", "duration"])
        #expect(labels(InitializeResult(widgets: [])) == ["widgets", "controls", "activities", "pipelining"])
        #expect(
            labels(WidgetDescriptor(kind: "", displayName: "", description: "", supportedFamilies: []))
                == ["kind", "displayName", "description", "supportedFamilies", "intent"])
        #expect(TimelinePolicy.atEnd.description == ".atEnd")  // three cases: atEnd, after, never
    }
}
