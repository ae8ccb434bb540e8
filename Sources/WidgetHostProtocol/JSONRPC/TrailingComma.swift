/// Finds a comma directly before `}` or `]` outside strings, which JSON (RFC 8259) forbids
/// but Foundation's reader on this toolchain accepts. Both channels promise -32700 for a line
/// that is not valid JSON, so the framer's lines are checked before they are decoded.
enum TrailingComma {
    /// The byte offset of the offending comma, or nil.
    static func find(in line: some Collection<UInt8>) -> Int? {
        // Unspecialised, the generic walk cost about 1,500 instructions a byte.
        if let found = line.withContiguousStorageIfAvailable(find(in:)) { return found }
        return find(in: Array(line))
    }

    static func find(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        var inString = false
        var escaped = false
        var lastComma: Int?
        for (offset, byte) in line.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                lastComma = nil
            case UInt8(ascii: ","):
                lastComma = offset
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let lastComma { return lastComma }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                break
            default:
                lastComma = nil
            }
        }
        return nil
    }
}
