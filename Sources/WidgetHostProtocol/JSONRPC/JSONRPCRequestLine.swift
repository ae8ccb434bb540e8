import Foundation

/// A request as one NDJSON line, its params written straight from their value:
/// `{"id":N,"jsonrpc":"2.0","method":"…","params":…}` and a newline; the params of the two
/// requests every widget's add sends, member by member.
///
/// `JSONRPCMessage.request(…).encodedLine()` turns the params into a `JSONValue` first and
/// the message into another, then writes that: about 44,000 instructions for each
/// `placeholder/get` or `timeline/get` the host sends, 0.09 M of the daemon's 0.81 M a widget
/// in a fill (issue 16, figure 4, callgrind). The text is the same but where
/// `JSONValue(encoding:)` turns a whole `Double` of 16 or more digits into an integer
/// (`1e+16` here, `10000000000000000` there), which decodes to the same `Double`.
public enum JSONRPCRequestLine {
    /// The line, or nil for params `WireEncoder` leaves to Foundation's encoder (send those
    /// the long way).
    public static func bytes(id: Int, method: String, params: some Encodable) -> [UInt8]? {
        line(id: id, method: method) { text in try text.value(params) }
    }

    /// `placeholder/get`'s params, member by member (each widget added sends one).
    public static func bytes(id: Int, method: String, params: PlaceholderParams) -> [UInt8]? {
        line(id: id, method: method) { text in
            text.append("{")
            try writeView(params.environment, params.family, params.kind, into: &text)
            text.append("}")
        }
    }

    /// `timeline/get`'s params, member by member (every reload sends one).
    public static func bytes(id: Int, method: String, params: TimelineParams) -> [UInt8]? {
        line(id: id, method: method) { text in
            text.append("{")
            if let configuration = params.configuration {
                text.append(#""configuration":"#)
                try text.value(configuration)
                text.append(",")
            }
            try writeView(params.environment, params.family, params.kind, into: &text)
            text.append(#","now":"#)
            text.date(params.now)
            text.append(#","widgetId":"#)
            text.string(params.widgetId)
            text.append("}")
        }
    }

    private static func line(id: Int, method: String, params: (inout JSONTextWriter) throws -> Void) -> [UInt8]? {
        var text = JSONTextWriter(reservingCapacity: 256)
        text.append(#"{"id":"#)
        text.integer(id)
        text.append(#","jsonrpc":"2.0","method":"#)
        text.string(method)
        text.append(#","params":"#)
        do { try params(&text) } catch { return nil }
        text.append("}\n")
        return text.bytes
    }

    /// The members both requests carry, in key order: `environment` (when there is one),
    /// `family`, `kind`; the caller writes the braces and the members around them.
    private static func writeView(
        _ environment: ViewEnvironment?, _ family: WidgetFamily, _ kind: String, into text: inout JSONTextWriter
    ) throws {
        if let environment {
            text.append(#""environment":"#)
            try write(environment, into: &text)
            text.append(",")
        }
        text.append(#""family":"#)
        text.string(family.rawValue)
        text.append(#","kind":"#)
        text.string(kind)
    }

    /// As its synthesized `encode(to:)` writes it: keys in order, absent optionals left out.
    /// `JSONRPCRequestLineTests` fails when `ViewEnvironment` gains a stored property.
    private static func write(_ environment: ViewEnvironment, into text: inout JSONTextWriter) throws {
        text.append(#"{"colorScheme":"#)
        text.string(environment.colorScheme.rawValue)
        text.append(#","displayScale":"#)
        try text.number(environment.displayScale)
        if let size = environment.dynamicTypeSize {
            text.append(#","dynamicTypeSize":"#)
            text.string(size)
        }
        if let locale = environment.locale {
            text.append(#","locale":"#)
            text.string(locale)
        }
        text.append(#","showsWidgetContainerBackground":"#)
        text.bool(environment.showsWidgetContainerBackground)
        text.append(#","widgetRenderingMode":"#)
        text.string(environment.widgetRenderingMode.rawValue)
        text.append("}")
    }
}
