import Foundation

/// A `timeline/get` reply read in one pass, from the line's bytes straight into its id and
/// `TimelinePayload`, for the common shape:
/// `{"id":N,"jsonrpc":"2.0","result":{"entries":[{"content":…,"date":"…","view":…},…],"policy":{…}}}`
/// in any key order and spacing. It reads with `JSONValueParser`'s reader (the same strings,
/// integers, depth limit and refusals), so every line it takes is one the plain reader takes
/// and it gives what `JSONRPCMessage.decodeResult` gives for it: the entries' content and
/// views as `JSONValue` first (the view then decoded as `ViewArchive.lenient` decodes it),
/// dates by `RFC3339.parse`. Anything else gives nil and goes the long way (a string id, a
/// `relevance`, a key it does not know, an error response, whatever is not plain JSON), which
/// then accepts or names the fault exactly as before.
///
/// Why: the long way builds the whole line as a `JSONValue` (a dictionary per object) and then
/// decodes the result from it through `Decoder`'s containers: 45,000 instructions of a warm
/// reload's reply step for the benchmark's 187-byte reply (issue 16, callgrind).
enum TimelineReplyReader {
    static func read(_ line: UnsafeBufferPointer<UInt8>) -> (id: Int, payload: TimelinePayload)? {
        var reader = JSONValueParser.Reader(bytes: line)
        reader.skipWhitespace()
        guard reader.expect(UInt8(ascii: "{")) else { return nil }
        var id: Int?
        var versionSeen = false
        var payload: TimelinePayload?
        let complete = members(&reader) { reader, key in
            switch key {
            case "id":
                guard id == nil, let byte = reader.peek,
                    byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                else { return false }
                id = reader.integer()
                return id != nil
            case "jsonrpc":
                guard !versionSeen, reader.peek == UInt8(ascii: "\""), reader.string() == "2.0" else { return false }
                versionSeen = true
                return true
            case "result":
                guard payload == nil else { return false }
                payload = timeline(&reader)
                return payload != nil
            default:
                return false
            }
        }
        reader.skipWhitespace()
        guard complete, reader.atEnd, versionSeen, let id, let payload else { return nil }
        return (id, payload)
    }

    /// An object's members after its `{`, each value read by `member` (false: give up), up to
    /// and including its `}`. Keys are read as the plain reader reads them.
    private static func members(
        _ reader: inout JSONValueParser.Reader, _ member: (inout JSONValueParser.Reader, String) -> Bool
    ) -> Bool {
        reader.skipWhitespace()
        if reader.expect(UInt8(ascii: "}")) { return true }
        while true {
            reader.skipWhitespace()
            guard reader.peek == UInt8(ascii: "\""), let key = reader.string() else { return false }
            reader.skipWhitespace()
            guard reader.expect(UInt8(ascii: ":")) else { return false }
            reader.skipWhitespace()
            guard member(&reader, key) else { return false }
            reader.skipWhitespace()
            if reader.expect(UInt8(ascii: ",")) { continue }
            return reader.expect(UInt8(ascii: "}"))
        }
    }

    /// The result object (depth 1): `entries` and `policy`, both required, nothing else.
    private static func timeline(_ reader: inout JSONValueParser.Reader) -> TimelinePayload? {
        guard reader.expect(UInt8(ascii: "{")) else { return nil }
        var entries: [TimelineEntryPayload]?
        var policy: TimelinePolicy?
        let complete = members(&reader) { reader, key in
            switch key {
            case "entries":
                guard entries == nil else { return false }
                entries = Self.entries(&reader)
                return entries != nil
            case "policy":
                guard policy == nil else { return false }
                policy = Self.policy(&reader)
                return policy != nil
            default:
                return false
            }
        }
        guard complete, let entries, let policy else { return nil }
        return TimelinePayload(entries: entries, policy: policy)
    }

    /// The entries array (depth 2).
    private static func entries(_ reader: inout JSONValueParser.Reader) -> [TimelineEntryPayload]? {
        guard reader.expect(UInt8(ascii: "[")) else { return nil }
        var entries: [TimelineEntryPayload] = []
        reader.skipWhitespace()
        if reader.expect(UInt8(ascii: "]")) { return entries }
        while true {
            reader.skipWhitespace()
            guard let entry = entry(&reader) else { return nil }
            entries.append(entry)
            reader.skipWhitespace()
            if reader.expect(UInt8(ascii: ",")) { continue }
            return reader.expect(UInt8(ascii: "]")) ? entries : nil
        }
    }

    /// One entry (depth 3): `date` required, `content` (null when absent) and `view` read as
    /// plain JSON values at depth 4, as the plain reader reads them.
    private static func entry(_ reader: inout JSONValueParser.Reader) -> TimelineEntryPayload? {
        guard reader.expect(UInt8(ascii: "{")) else { return nil }
        var date: Date?
        var content: JSONValue?
        var view: JSONValue?
        let complete = members(&reader) { reader, key in
            switch key {
            case "date":
                guard date == nil, reader.peek == UInt8(ascii: "\""), let text = reader.string() else { return false }
                date = RFC3339.parse(text)
                return date != nil
            case "content":
                guard content == nil else { return false }
                content = reader.value(depth: 4)
                return content != nil
            case "view":
                guard view == nil else { return false }
                view = reader.value(depth: 4)
                return view != nil
            default:
                return false
            }
        }
        guard complete, let date else { return nil }
        return TimelineEntryPayload(date: date, content: content ?? .null, view: view.flatMap(ViewArchive.lenient))
    }

    /// The policy (depth 2): `type`, and `date` for `after`; strings only.
    private static func policy(_ reader: inout JSONValueParser.Reader) -> TimelinePolicy? {
        guard reader.expect(UInt8(ascii: "{")) else { return nil }
        var type: String?
        var dateText: String?
        let complete = members(&reader) { reader, key in
            guard reader.peek == UInt8(ascii: "\"") else { return false }
            switch key {
            case "type":
                guard type == nil else { return false }
                type = reader.string()
                return type != nil
            case "date":
                guard dateText == nil else { return false }
                dateText = reader.string()
                return dateText != nil
            default:
                return false
            }
        }
        guard complete, let type else { return nil }
        switch type {
        case "atEnd": return .atEnd
        case "never": return .never
        case "after": return dateText.flatMap(RFC3339.parse).map(TimelinePolicy.after)
        default: return nil
        }
    }
}
