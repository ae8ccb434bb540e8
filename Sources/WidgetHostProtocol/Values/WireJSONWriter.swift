/// Writes `WireValue`s and `JSONValue`s as JSON text the way swift-foundation's `JSONWriter`
/// does with `.sortedKeys` and `.withoutEscapingSlashes` (see `WireJSONEncoder`).
struct WireJSONWriter {
    var bytes: [UInt8] = []

    /// Foundation refuses deeper nesting (`JSONWriter.maximumRecursionDepth`).
    private static let maximumDepth = 512

    mutating func write(_ value: WireValue, depth: Int = 0) throws {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .string(let text): writeString(text)
        case .number(let text): writeRaw(text)
        case .integer(let number): writeRaw(String(number))
        case .json(let json): try write(json, depth: depth)
        case .raw(let raw): bytes.append(contentsOf: raw)
        case .deferred(let encoder): try write(encoder.value ?? .object(WireObject()), depth: depth)
        case .array(let array):
            guard depth + 1 < Self.maximumDepth else { throw Self.tooDeep }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(item, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard depth + 1 < Self.maximumDepth else { throw Self.tooDeep }
            bytes.append(UInt8(ascii: "{"))
            let order = Self.sortedOrder(object.keys)
            var first = true
            for (position, index) in order.enumerated() {
                // The last value set under a key wins (equal keys sort by the order they were set).
                if position + 1 < order.count, object.keys[order[position + 1]] == object.keys[index] { continue }
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(object.keys[index])
                bytes.append(UInt8(ascii: ":"))
                try write(object.values[index], depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    mutating func write(_ value: JSONValue, depth: Int) throws {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .string(let text): writeString(text)
        case .integer(let number): writeRaw(String(number))
        case .number(let number):
            guard case .number(let text) = try WireValue.number(number, path: { [] }) else { return }
            writeRaw(text)
        case .array(let items):
            guard depth + 1 < Self.maximumDepth else { throw Self.tooDeep }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(item, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard depth + 1 < Self.maximumDepth else { throw Self.tooDeep }
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                try write(member, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Indices of `keys` in UTF-8 byte order; equal keys keep the order they were set in.
    private static func sortedOrder(_ keys: [String]) -> [Int] {
        var order = Array(keys.indices)
        // Insertion sort: a record's objects have a few to twenty keys, and it is stable.
        if keys.count <= 32 {
            for position in order.indices.dropFirst() {
                let moving = order[position]
                var slot = position
                while slot > 0, keys[moving].utf8.lexicographicallyPrecedes(keys[order[slot - 1]].utf8) {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = moving
            }
            return order
        }
        order.sort { left, right in
            let (a, b) = (keys[left], keys[right])
            if a == b { return left < right }
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        return order
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `"…"` with Foundation's escapes: `"` `\` and bytes below 0x20; `/` and everything else as is.
    mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var mark = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
                mark = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static var tooDeep: EncodingError {
        EncodingError.invalidValue(
            0, .init(codingPath: [], debugDescription: "Too many nested arrays or dictionaries"))
    }
}
