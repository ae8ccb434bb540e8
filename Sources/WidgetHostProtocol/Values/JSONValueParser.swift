/// A strict reader for the plain JSON that nearly every line is (objects, arrays, strings
/// without `\u` escapes, integers, `true`, `false`, `null`), straight from the bytes to a
/// `JSONValue`. Anything else gives nil and goes to Foundation's `JSONDecoder`, whose value
/// or verdict then stands: fractions and exponents, `\u` escapes, integers of 19 digits or
/// more, leading zeros, duplicate keys, invalid UTF-8, trailing commas, deep nesting, a
/// top-level scalar, whatever the RFC forbids. So for any line this gives the value Foundation
/// gives, or nothing.
///
/// Why: decoding a `status` request through `JSONDecoder` into `JSONValue` (one thrown error
/// per shape tried, generic metadata looked up per value) was about 88,000 of the 230,000
/// instructions the daemon spent per request (callgrind); this takes a few thousand.
///
/// (`JSONValue` is `ExpressibleByNilLiteral`: a bare `nil` where a `JSONValue` fits is
/// `.null`, so "no value" is spelled `JSONValue?.none` here.)
enum JSONValueParser {
    /// Deeper than this is left to Foundation (which has its own limit).
    static let maxDepth = 64

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        // A top-level scalar is left to Foundation, which decides whether to take it.
        guard let first = reader.peek, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.atEnd ? value : JSONValue?.none
    }

    /// The reader itself; `TimelineReplyReader` walks a reply's envelope with it and reads
    /// the values inside (content, a view) as this reader reads them.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
                default: return
                }
            }
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < JSONValueParser.maxDepth, let byte = peek else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true") ? JSONValue.bool(true) : JSONValue?.none
            case UInt8(ascii: "f"): return literal("false") ? JSONValue.bool(false) : JSONValue?.none
            case UInt8(ascii: "n"): return literal("null") ? JSONValue.null : JSONValue?.none
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer().map(JSONValue.integer)
            default: return nil
            }
        }

        mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(4)
            skipWhitespace()
            if expect(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard expect(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value(depth: depth + 1) else { return nil }
                // A repeated key: which one wins is Foundation's to say.
                guard members.updateValue(value, forKey: key) == nil else { return nil }
                skipWhitespace()
                if expect(UInt8(ascii: ",")) { continue }
                return expect(UInt8(ascii: "}")) ? JSONValue.object(members) : JSONValue?.none
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if expect(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                skipWhitespace()
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                if expect(UInt8(ascii: ",")) { continue }
                return expect(UInt8(ascii: "]")) ? JSONValue.array(elements) : JSONValue?.none
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// `-`? then `0` or a non-zero digit and at most 17 more, not followed by a fraction or
        /// an exponent: always an `Int`, as Foundation reads it (`-0` is left to it).
        mutating func integer() -> Int? {
            let negative = expect(UInt8(ascii: "-"))
            let start = index
            var magnitude = 0
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard index - start < 18 else { return nil }
                magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - start
            guard digits >= 1 else { return nil }
            if digits > 1, bytes[start] == UInt8(ascii: "0") { return nil }
            // -0: whether it is the integer 0 or the number -0.0 is Foundation's to say.
            if negative, magnitude == 0 { return nil }
            switch peek {
            case UInt8(ascii: ".")?, UInt8(ascii: "e")?, UInt8(ascii: "E")?: return nil
            default: return negative ? -magnitude : magnitude
            }
        }

        /// A string whose escapes are the one-letter ones; its bytes must be valid UTF-8
        /// with no control character, as the RFC asks.
        mutating func string() -> String? {
            index += 1
            let start = index
            var plain = true
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let body = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    guard plain else { return Self.unescaped(body) }
                    // ASCII is valid UTF-8 as it stands.
                    return ascii ? String(decoding: body, as: UTF8.self) : String(validating: body, as: UTF8.self)
                }
                if byte >= 0x80 { ascii = false }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    plain = false
                    index += 1
                    guard index < bytes.count else { return nil }
                }
                index += 1
            }
            return nil
        }

        /// The body of a string with escapes: nil for `\u` (surrogate pairs are Foundation's).
        static func unescaped(_ body: UnsafeBufferPointer<UInt8>) -> String? {
            var out: [UInt8] = []
            out.reserveCapacity(body.count)
            var index = 0
            while index < body.count {
                let byte = body[index]
                index += 1
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    continue
                }
                switch body[index] {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                default: return nil
                }
                index += 1
            }
            return String(validating: out, as: UTF8.self)
        }
    }
}
