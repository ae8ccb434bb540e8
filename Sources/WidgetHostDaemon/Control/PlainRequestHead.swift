/// The head both plain request lines share (`PlainStatusRequest`, `PlainReloadRequest`): one
/// of the two prefixes, then the id — `0` or 1 to 18 digits without a leading zero, so it is
/// an `Int` and its text is `String(N)`, which the reply echoes.
enum PlainRequestHead {
    /// `{"jsonrpc":"2.0","id":` and the sorted-key `{"id":` (as ControlClient writes them); the
    /// index of the one found is the line's shape.
    static let prefixes: [[UInt8]] = [Array(#"{"jsonrpc":"2.0","id":"#.utf8), Array(#"{"id":"#.utf8)]

    /// The shape, the id and where the id ends, or nil when `line` starts with neither prefix
    /// or its id is not one as above.
    static func read(_ line: UnsafeBufferPointer<UInt8>) -> (shape: Int, id: Int, end: Int)? {
        for shape in 0..<prefixes.count where starts(line, at: 0, with: prefixes[shape]) {
            var index = prefixes[shape].count
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
            return (shape, id, index)
        }
        return nil
    }

    static func starts(_ line: UnsafeBufferPointer<UInt8>, at offset: Int, with bytes: [UInt8]) -> Bool {
        guard offset >= 0, line.count - offset >= bytes.count else { return false }
        for index in 0..<bytes.count where line[offset + index] != bytes[index] { return false }
        return true
    }
}
