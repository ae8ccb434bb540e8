import Foundation

extension WireEncoder {
    /// Writes encoded items as JSON text, the way Foundation's `JSONWriter` does with
    /// `.sortedKeys` and `.withoutEscapingSlashes`.
    struct Writer {
        var bytes: [UInt8] = []

        init() {
            bytes.reserveCapacity(512)
        }

        mutating func write(_ item: Item) throws {
            switch item {
            case .null: append("null")
            case .bool(let value): append(value ? "true" : "false")
            case .int(let value): writeInteger(value)
            case .uint(let value): writeUnsigned(value)
            case .double(let value): try writeFloating(value)
            case .float(let value): try writeFloating(value)
            case .string(let value): writeString(value)
            case .json(let value): try write(value)
            case .node(let node): try write(node)
            }
        }

        private mutating func write(_ node: Node) throws {
            if node.mixed { throw Unsupported() }
            if let object = node.object {
                try writeObject(object)
            } else if let array = node.array {
                bytes.append(UInt8(ascii: "["))
                for (index, item) in array.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    try write(item)
                }
                bytes.append(UInt8(ascii: "]"))
            } else if let single = node.single {
                try write(single)
            } else {
                // A value that asked for no container: `JSONEncoder` writes an empty object.
                append("{}")
            }
        }

        /// Keys in UTF-8 byte order; of a key written twice, the last value.
        private mutating func writeObject(_ entries: [(key: String, item: Item)]) throws {
            bytes.append(UInt8(ascii: "{"))
            let order = Self.sortedOrder(entries.count) { entries[$0].key }
            var first = true
            for (position, index) in order.enumerated() {
                if position + 1 < order.count, Self.compare(entries[order[position + 1]].key, entries[index].key) == 0 {
                    continue
                }
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(entries[index].key)
                bytes.append(UInt8(ascii: ":"))
                try write(entries[index].item)
            }
            bytes.append(UInt8(ascii: "}"))
        }

        mutating func write(_ value: JSONValue) throws {
            switch value {
            case .null: append("null")
            case .bool(let value): append(value ? "true" : "false")
            case .integer(let value): writeInteger(Int64(value))
            case .number(let value): try writeFloating(value)
            case .string(let value): writeString(value)
            case .array(let items):
                bytes.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    try write(item)
                }
                bytes.append(UInt8(ascii: "]"))
            case .object(let members):
                bytes.append(UInt8(ascii: "{"))
                let keys = Array(members.keys)
                for (position, index) in Self.sortedOrder(keys.count, key: { keys[$0] }).enumerated() {
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeString(keys[index])
                    bytes.append(UInt8(ascii: ":"))
                    try write(members[keys[index]]!)
                }
                bytes.append(UInt8(ascii: "}"))
            }
        }

        // MARK: Scalars

        mutating func append(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func writeInteger(_ value: Int64) {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            writeUnsigned(value.magnitude)
        }

        private mutating func writeUnsigned(_ value: UInt64) {
            guard value >= 10 else {
                bytes.append(UInt8(ascii: "0") + UInt8(value))
                return
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                var rest = value
                var start = 20
                while rest > 0 {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
            }
        }

        /// `description` without a trailing ".0", as `JSONEncoder` writes it; NaN and the
        /// infinities are Foundation's to refuse.
        mutating func writeFloating<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
            guard value.isFinite else { throw Unsupported() }
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            bytes.append(contentsOf: text.utf8)
        }

        /// A date as `WireCoding` writes one: its RFC 3339 text, quoted (it never needs escaping).
        mutating func writeDate(_ date: Date) {
            bytes.append(UInt8(ascii: "\""))
            RFC3339.append(date, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }

        /// Quoted; `"` and `\` escaped, the control characters as `JSONWriter` writes them.
        mutating func writeString(_ value: String) {
            bytes.append(UInt8(ascii: "\""))
            var value = value
            value.withUTF8 { utf8 in
                var mark = 0
                for index in 0..<utf8.count {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                    if index > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index])) }
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
                        append("u00")
                        bytes.append(Self.hex(byte / 16))
                        bytes.append(Self.hex(byte % 16))
                    }
                }
                if utf8.count > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...])) }
            }
            bytes.append(UInt8(ascii: "\""))
        }

        private static func hex(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }

        // MARK: Key order

        /// The indices 0..<count ordered by their keys' UTF-8 bytes, equal keys in the order
        /// they came (so that the last of them is the one kept).
        static func sortedOrder(_ count: Int, key: (Int) -> String) -> [Int] {
            var order = Array(0..<count)
            // Objects are small: insertion sort, stable, and no closure context per comparison.
            if count <= 24 {
                for next in 1..<max(count, 1) {
                    let moving = order[next]
                    var slot = next
                    while slot > 0, compare(key(order[slot - 1]), key(moving)) > 0 {
                        order[slot] = order[slot - 1]
                        slot -= 1
                    }
                    order[slot] = moving
                }
                return order
            }
            order.sort { left, right in
                let result = compare(key(left), key(right))
                return result < 0 || (result == 0 && left < right)
            }
            return order
        }

        /// -1, 0 or 1, by the UTF-8 bytes.
        static func compare(_ left: String, _ right: String) -> Int {
            var left = left
            var right = right
            return left.withUTF8 { a in
                right.withUTF8 { b in
                    let shared = min(a.count, b.count)
                    for index in 0..<shared where a[index] != b[index] {
                        return a[index] < b[index] ? -1 : 1
                    }
                    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
                }
            }
        }
    }
}
