/// A control line that is byte for byte a plain `status` request, recognised without reading
/// it as JSON: reading, classifying and dispatching the line were about 11,000 of the 47,500
/// instructions a `status` request cost (callgrind, docs/benchmarks.md). Only these shapes,
/// exactly, with nothing else on the line (the framer has taken off the newline and a CR):
///
///     {"jsonrpc":"2.0","id":N,"method":"status"}
///     {"jsonrpc":"2.0","id":N,"method":"status","params":{}}
///     {"id":N,"jsonrpc":"2.0","method":"status"}                  (keys sorted, as ControlClient writes them)
///     {"id":N,"jsonrpc":"2.0","method":"status","params":{}}
///
/// where N is as `PlainRequestHead` reads it. Anything else — a space, another key order, a string
/// or negative id, any params but `{}`, a batch — goes the normal way; these four are
/// requests the normal way reads as `request(id: .number(N), method: "status", params: nil
/// or {})`, which `StatusFastPathTests` checks on the shapes and on random mutations of them.
/// The request is then run through the dispatcher's own `status` case (`ControlAuthority`
/// included): only the reading is skipped.
enum PlainStatusRequest {
    /// What may follow the id, for each prefix.
    private static let suffixes: [[[UInt8]]] = [
        [Array(#","method":"status"}"#.utf8), Array(#","method":"status","params":{}}"#.utf8)],
        [Array(#","jsonrpc":"2.0","method":"status"}"#.utf8), Array(#","jsonrpc":"2.0","method":"status","params":{}}"#.utf8)],
    ]

    /// The id of a plain `status` request, or nil when `line` is not exactly one.
    static func id(of line: [UInt8]) -> Int? {
        line.withUnsafeBufferPointer { id(of: $0) }
    }

    static func id(of line: UnsafeBufferPointer<UInt8>) -> Int? {
        // The shortest shape is 42 bytes; skipping others early keeps the normal path's cost.
        guard line.count >= 42, line[0] == UInt8(ascii: "{"), line[line.count - 1] == UInt8(ascii: "}"),
            let head = PlainRequestHead.read(line)
        else { return nil }
        for suffix in suffixes[head.shape]
        where line.count - head.end == suffix.count && PlainRequestHead.starts(line, at: head.end, with: suffix) {
            return head.id
        }
        return nil
    }
}
