import Foundation

/// The payloads an extension answers with on every request — a timeline, an entry, its
/// policy and relevance — and the catalog it answers `initialize` with, as items built
/// directly, without going through `Encoder`. Through it each object costs a container box,
/// generic metadata for its keys, and (the first time a type is written in a process) a
/// conformance lookup that scans every loaded image: a third of the SDK's instructions per
/// request, and most of what `initialize` adds to an extension's start (callgrind).
///
/// Each mirrors its type's `encode(to:)` (synthesized or written out) key for key: absent
/// optionals are left out, `WireEncoderTests` compares the bytes with `JSONEncoder`'s, and
/// `WireEncoderPayloadTests` fails when one of these types gains a stored property.
extension WireEncoder {
    /// `value` as an item if it is one of these types; nil otherwise.
    static func payloadItem<T: Encodable>(_ value: T) throws -> Item? {
        if T.self == TimelineEntryPayload.self { return try item(value as! TimelineEntryPayload) }
        if T.self == TimelinePayload.self { return try item(value as! TimelinePayload) }
        if T.self == TimelinePolicy.self { return item(value as! TimelinePolicy) }
        if T.self == EntryRelevance.self { return item(value as! EntryRelevance) }
        if T.self == InitializeResult.self { return try item(value as! InitializeResult) }
        if T.self == WidgetDescriptor.self { return try item(value as! WidgetDescriptor) }
        return nil
    }

    private static func object(_ members: [(key: String, item: Item)]) -> Item {
        let node = Node()
        node.object = members
        return .node(node)
    }

    private static func array(_ items: [Item]) -> Item {
        let node = Node()
        node.array = items
        return .node(node)
    }

    static func item(_ entry: TimelineEntryPayload) throws -> Item {
        var members: [(key: String, item: Item)] = [("content", .json(entry.content)), ("date", .string(RFC3339.format(entry.date)))]
        members.reserveCapacity(4)
        if let relevance = entry.relevance { members.append(("relevance", item(relevance))) }
        if let view = entry.view { members.append(("view", try box(view))) }
        return object(members)
    }

    static func item(_ timeline: TimelinePayload) throws -> Item {
        object([("entries", array(try timeline.entries.map(item))), ("policy", item(timeline.policy))])
    }

    static func item(_ policy: TimelinePolicy) -> Item {
        switch policy {
        case .atEnd: object([("type", .string("atEnd"))])
        case .never: object([("type", .string("never"))])
        case .after(let date): object([("date", .string(RFC3339.format(date))), ("type", .string("after"))])
        }
    }

    static func item(_ relevance: EntryRelevance) -> Item {
        guard let duration = relevance.duration else { return object([("score", .double(relevance.score))]) }
        return object([("duration", .double(duration)), ("score", .double(relevance.score))])
    }

    static func item(_ result: InitializeResult) throws -> Item {
        var members: [(key: String, item: Item)] = []
        members.reserveCapacity(4)
        if let activities = result.activities { members.append(("activities", array(activities.map { .string($0) }))) }
        if let controls = result.controls { members.append(("controls", try box(controls))) }
        if let pipelining = result.pipelining { members.append(("pipelining", .bool(pipelining))) }
        members.append(("widgets", array(try result.widgets.map(item))))
        return object(members)
    }

    static func item(_ widget: WidgetDescriptor) throws -> Item {
        var members: [(key: String, item: Item)] = [
            ("description", .string(widget.description)), ("displayName", .string(widget.displayName)),
            ("kind", .string(widget.kind)),
            ("supportedFamilies", array(widget.supportedFamilies.map { .string($0.rawValue) })),
        ]
        if let intent = widget.intent { members.append(("intent", try box(intent))) }
        return object(members)
    }
}
