import Foundation

/// A request as one NDJSON line, its params written straight from their value:
/// `{"id":N,"jsonrpc":"2.0","method":"…","params":…}` and a newline.
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
        var text = JSONTextWriter(reservingCapacity: 256)
        text.append(#"{"id":"#)
        text.integer(id)
        text.append(#","jsonrpc":"2.0","method":"#)
        text.string(method)
        text.append(#","params":"#)
        do { try text.value(params) } catch { return nil }
        text.append("}\n")
        return text.bytes
    }
}
