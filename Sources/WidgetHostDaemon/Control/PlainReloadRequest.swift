/// A control line that is byte for byte a plain `reloadTimelines` request for one kind,
/// recognised without reading it as JSON, as `PlainStatusRequest` is for `status`: on a cold
/// reload the line is read before the extension's spawn, and reading, classifying and naming
/// its method were ~12 k instructions there (callgrind, issue 16). Only these shapes, exactly
/// (the framer has taken off the newline and a CR):
///
///     {"jsonrpc":"2.0","id":N,"method":"reloadTimelines","params":{"kind":"K"}}
///     {"id":N,"jsonrpc":"2.0","method":"reloadTimelines","params":{"kind":"K"}}   (keys sorted, as ControlClient writes them)
///
/// where N is as `PlainRequestHead` reads it (`0` or 1 to 18 digits without a leading zero)
/// and K is 1 to 256 bytes of printable ASCII other than `"` and `\` (so that its text is the
/// string, with nothing to unescape or validate). Anything else goes the normal way; these are
/// requests the normal way reads as `request(id: .number(N), method: "reloadTimelines",
/// params: {"kind": K})`, which `PlainReloadRequestTests` checks on the shapes and on random
/// mutations of them. The request then runs through the dispatcher's own `reloadTimelines`
/// case (`ControlAuthority` included): only the reading is skipped.
enum PlainReloadRequest {
    /// What follows the id, up to the kind's text, for each prefix.
    private static let middles: [[UInt8]] = [
        Array(#","method":"reloadTimelines","params":{"kind":""#.utf8),
        Array(#","jsonrpc":"2.0","method":"reloadTimelines","params":{"kind":""#.utf8),
    ]
    private static let end: [UInt8] = Array(#""}}"#.utf8)
    static let maxKindBytes = 256

    /// The id and kind of a plain `reloadTimelines` request, or nil when `line` is not exactly one.
    static func request(of line: [UInt8]) -> (id: Int, kind: String)? {
        line.withUnsafeBufferPointer { request(of: $0) }
    }

    static func request(of line: UnsafeBufferPointer<UInt8>) -> (id: Int, kind: String)? {
        // The shortest shape is 73 bytes; skipping others early keeps the normal path's cost.
        guard line.count >= 73, line[0] == UInt8(ascii: "{"), line[line.count - 1] == UInt8(ascii: "}"),
            let head = PlainRequestHead.read(line)
        else { return nil }
        let middle = middles[head.shape]
        guard PlainRequestHead.starts(line, at: head.end, with: middle) else { return nil }
        let kindStart = head.end + middle.count
        let kindEnd = line.count - end.count
        guard kindEnd > kindStart, kindEnd - kindStart <= maxKindBytes, PlainRequestHead.starts(line, at: kindEnd, with: end)
        else { return nil }
        for byte in line[kindStart..<kindEnd]
        where byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return nil
        }
        return (head.id, String(decoding: UnsafeBufferPointer(rebasing: line[kindStart..<kindEnd]), as: UTF8.self))
    }
}
