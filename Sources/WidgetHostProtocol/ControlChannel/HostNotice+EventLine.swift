import Foundation

/// The `event` line a `subscribe` connection gets for a notice, written straight from the
/// flat form: its keys in the order `JSONEncoder`'s `.sortedKeys` puts them, each value as
/// `WireEncoder` writes it. Through `Encodable` each notice cost ~50,000 instructions (a
/// keyed container box per object, a `Node` per level, the keys sorted again on every line);
/// three go out with every reload (issue 16, callgrind). `HostNoticeEventLineTests` compares
/// the bytes with `JSONEncoder`'s for every notice type.
extension HostNotice {
    /// `{"jsonrpc":"2.0","method":"event","params":…}` and a newline: the bytes of
    /// `JSONRPCMessage.notificationLine(method: "event", params: self)`. Throws, as that does,
    /// when the notice cannot be encoded (a NaN in an entry's content).
    public func eventLine() throws -> [UInt8] {
        do {
            return try WireEncoder.eventLine(self)
        } catch {
            // What `WireEncoder` leaves to Foundation (a NaN, an entry with a URL): the general path.
            return Array(try JSONRPCMessage.notificationLine(method: ControlMethod.eventNotification, params: self))
        }
    }
}

extension WireEncoder {
    /// `HostNotice.eventLine()` without the fallback: throws `Unsupported` where `WireEncoder`
    /// would.
    static func eventLine(_ notice: HostNotice) throws -> [UInt8] {
        if let line = try reloadEventLine(notice) { return line }
        let flat = FlatNotice(notice)
        var object = FlatObjectWriter()
        object.writer.append(#"{"jsonrpc":"2.0","method":"event","params":{"#)
        // The keys of `FlatNotice` by their UTF-8 bytes; `nil` fields are left out, as
        // `encodeIfPresent` leaves them out.
        if let activity = flat.activity { try object.member(#""activity":"#, try box(activity)) }
        object.member(#""at":"#, flat.at)
        if let budgeted = flat.budgeted { try object.member(#""budgeted":"#, .bool(budgeted)) }
        if let button = flat.button { object.member(#""button":"#, button) }
        if let control = flat.control { object.member(#""control":"#, control) }
        if let detail = flat.detail { object.member(#""detail":"#, detail) }
        if let diagnostic = flat.diagnostic { try object.member(#""diagnostic":"#, try box(diagnostic)) }
        if let durationMs = flat.durationMs { try object.member(#""durationMs":"#, .double(durationMs)) }
        if let entry = flat.entry { try object.member(#""entry":"#, entry) }
        if let exemption = flat.exemption { object.member(#""exemption":"#, exemption) }
        if let name = flat.extension { object.member(#""extension":"#, name) }
        if let footprint = flat.footprintBytes { try object.member(#""footprintBytes":"#, .int(Int64(footprint))) }
        if let intent = flat.intent { object.member(#""intent":"#, intent) }
        if let isOn = flat.isOn { try object.member(#""isOn":"#, .bool(isOn)) }
        if let kind = flat.kind { object.member(#""kind":"#, kind) }
        if let outcome = flat.outcome { object.member(#""outcome":"#, outcome.rawValue) }
        if let reason = flat.reason { object.member(#""reason":"#, reason.rawValue) }
        if let requestedAt = flat.requestedAt { object.member(#""requestedAt":"#, requestedAt) }
        if let result = flat.result { object.member(#""result":"#, result.rawValue) }
        object.member(#""type":"#, flat.type.rawValue)
        if let until = flat.until { object.member(#""until":"#, until) }
        if let value = flat.value { try object.member(#""value":"#, try box(value)) }
        if let widgetId = flat.widgetId { object.member(#""widgetId":"#, widgetId) }
        object.writer.append("}}\n")
        return object.writer.bytes
    }
}

extension WireEncoder {
    /// The four notices of every reload (`reloadStarted`, `reloadFinished`, `entryChanged`,
    /// `extensionStopped` when the process stops idle) written from the notice itself, the
    /// same members in the same order as through `FlatNotice`, whose two dozen optional
    /// fields were ~1,900 instructions a notice to fill and drop (issue 16, callgrind); nil
    /// for the others. `HostNoticeEventLineTests` compares every shape with `JSONEncoder`.
    fileprivate static func reloadEventLine(_ notice: HostNotice) throws -> [UInt8]? {
        var object = FlatObjectWriter()
        object.writer.append(#"{"jsonrpc":"2.0","method":"event","params":{"#)
        switch notice {
        case .reloadStarted(let widget, let at, let charge, let requestedAt):
            object.member(#""at":"#, at)
            try object.member(#""budgeted":"#, .bool(charge.isBudgeted))
            switch charge {
            case .budgeted: break
            case .exempt(let reason): object.member(#""exemption":"#, reason.rawValue)
            case .prepaid: object.member(#""exemption":"#, "prepaid")
            }
            object.member(#""extension":"#, widget.extension)
            object.member(#""kind":"#, widget.kind)
            object.member(#""requestedAt":"#, requestedAt)
            object.member(#""type":"#, HostNotice.NoticeType.reloadStarted.rawValue)
            object.member(#""widgetId":"#, widget.id)
        case .reloadFinished(let widget, let at, let budgeted, let result, let durationMs, let footprintBytes, let detail):
            object.member(#""at":"#, at)
            try object.member(#""budgeted":"#, .bool(budgeted))
            if let detail { object.member(#""detail":"#, detail) }
            try object.member(#""durationMs":"#, .double(durationMs))
            object.member(#""extension":"#, widget.extension)
            if let footprintBytes { try object.member(#""footprintBytes":"#, .int(Int64(footprintBytes))) }
            object.member(#""kind":"#, widget.kind)
            object.member(#""result":"#, result.rawValue)
            object.member(#""type":"#, HostNotice.NoticeType.reloadFinished.rawValue)
            object.member(#""widgetId":"#, widget.id)
        case .entryChanged(let widget, let at, let entry, let source):
            object.member(#""at":"#, at)
            object.member(#""detail":"#, source.rawValue)
            if let entry { try object.member(#""entry":"#, entry) }
            object.member(#""extension":"#, widget.extension)
            object.member(#""kind":"#, widget.kind)
            object.member(#""type":"#, HostNotice.NoticeType.entryChanged.rawValue)
            object.member(#""widgetId":"#, widget.id)
        case .extensionStopped(let ext, let at, let detail):
            object.member(#""at":"#, at)
            object.member(#""detail":"#, detail)
            object.member(#""extension":"#, ext)
            object.member(#""type":"#, HostNotice.NoticeType.extensionStopped.rawValue)
        default:
            return nil
        }
        object.writer.append("}}\n")
        return object.writer.bytes
    }
}

/// One JSON object's members, written in the order given (the caller's keys are sorted and
/// need no escaping; each comes as its token, `"name":`).
private struct FlatObjectWriter {
    var writer = WireEncoder.Writer()
    private var first = true

    /// `token`: the key quoted, with its colon (`"at":`), written in one piece.
    private mutating func key(_ token: StaticString) {
        if first {
            first = false
        } else {
            writer.bytes.append(UInt8(ascii: ","))
        }
        writer.append(token)
    }

    mutating func member(_ token: StaticString, _ item: WireEncoder.Item) throws {
        key(token)
        try writer.write(item)
    }

    mutating func member(_ token: StaticString, _ text: String) {
        key(token)
        writer.writeString(text)
    }

    /// An entry written member by member, as `WireEncoder.item(_:)` has it: through an item,
    /// its object node, members array and date string cost ~3,000 instructions an
    /// `entryChanged` line (issue 16, callgrind).
    mutating func member(_ token: StaticString, _ entry: TimelineEntryPayload) throws {
        key(token)
        writer.append(#"{"content":"#)
        try writer.write(entry.content)
        writer.append(#","date":"#)
        writer.writeDate(entry.date)
        if let relevance = entry.relevance {
            writer.append(#","relevance":"#)
            try writer.write(WireEncoder.item(relevance))
        }
        if let view = entry.view {
            writer.append(#","view":"#)
            try writer.write(WireEncoder.box(view))
        }
        writer.bytes.append(UInt8(ascii: "}"))
    }

    /// A date needs no escaping: its text is written as it is.
    mutating func member(_ token: StaticString, _ date: Date) {
        key(token)
        writer.writeDate(date)
    }
}
