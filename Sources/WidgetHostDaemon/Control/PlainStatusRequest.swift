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
/// where N is `0` or 1 to 18 digits without a leading zero (so it is an `Int`, and its text is
/// `String(N)`, which the reply echoes). Anything else — a space, another key order, a string
/// or negative id, any params but `{}`, a batch — goes the normal way; these four are
/// requests the normal way reads as `request(id: .number(N), method: "status", params: nil
/// or {})`, which `StatusFastPathTests` checks on the shapes and on random mutations of them.
/// The request is then run through the dispatcher's own `status` case (`ControlAuthority`
/// included): only the reading is skipped.
enum PlainStatusRequest {
    private static let prefixes: [[UInt8]] = [Array(#"{"jsonrpc":"2.0","id":"#.utf8), Array(#"{"id":"#.utf8)]
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
        guard line.count >= 42, line[0] == UInt8(ascii: "{"), line[line.count - 1] == UInt8(ascii: "}") else { return nil }
        for shape in 0..<prefixes.count {
            let prefix = prefixes[shape]
            guard starts(line, at: 0, with: prefix) else { continue }
            var index = prefix.count
            var id = 0
            let first = index
            while index < line.count, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
                // 18 digits always fit an Int; a 19th is refused before it could overflow.
                if index - first == 18 { return nil }
                id = id * 10 + Int(line[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - first
            guard digits > 0, digits == 1 || line[first] != UInt8(ascii: "0") else { return nil }
            for suffix in suffixes[shape] where line.count - index == suffix.count && starts(line, at: index, with: suffix) {
                return id
            }
            return nil
        }
        return nil
    }

    private static func starts(_ line: UnsafeBufferPointer<UInt8>, at offset: Int, with bytes: [UInt8]) -> Bool {
        guard line.count - offset >= bytes.count else { return false }
        for index in 0..<bytes.count where line[offset + index] != bytes[index] { return false }
        return true
    }
}
