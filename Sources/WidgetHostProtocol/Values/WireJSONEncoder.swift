import Foundation

/// Encodable → JSON bytes, exactly the bytes `WireCoding.encoder` (Foundation's `JSONEncoder`
/// with sorted keys, unescaped slashes and RFC 3339 dates) writes, in one pass over a small
/// tree of values instead of Foundation's boxed values, key dictionaries and second walk.
///
/// Why: the daemon encodes every changed record on every step, every control reply and
/// every request to an extension; Foundation's encoder was 73 % of the daemon's
/// instructions while widgets were added (docs/benchmarks.md, issue 16).
///
/// What it must match (swift-foundation's `JSONWriter` and `JSONEncoder` on Linux): keys
/// sorted by their UTF-8 bytes, the last value written under a key wins; strings escape `"`,
/// `\`, `\b \f \n \r \t` and other bytes below 0x20 as `\u00xx`, nothing else; a whole
/// `Double` drops its `.0` (`12`, `1e+300`, `-0`), NaN and infinities are refused; a nested
/// value that encodes nothing is `{}`, a top-level one an error. `Data`, `URL` and `Decimal`
/// are rare on the wire and are written by Foundation itself. `WireJSONEncoderTests`
/// compares the two byte for byte.
enum WireJSONEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        guard let root = try WireValue.box(value, encoder: nil, key: nil) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        var writer = WireJSONWriter()
        writer.bytes.reserveCapacity(512)
        try writer.write(root)
        return writer.bytes
    }
}

/// One encoded value; objects and arrays are filled by their containers after they exist.
enum WireValue {
    case null
    case bool(Bool)
    case string(String)
    /// A number's text, written as is.
    case number(String)
    case integer(Int)
    case json(JSONValue)
    /// Bytes Foundation wrote (`Data`, `URL`, `Decimal`).
    case raw([UInt8])
    case object(WireObject)
    case array(WireArray)
    /// What a `superEncoder` receives, read when the whole value is written.
    case deferred(WireEncoder)

    /// The value for `value`: the types the wire encoder writes specially first, then the
    /// value's own `encode(to:)`. nil: it encoded nothing.
    static func box<T: Encodable>(_ value: T, encoder parent: WireEncoder?, key: (any CodingKey)?) throws -> WireValue? {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Date.self { return .string(RFC3339.format(value as! Date)) }
        if T.self == JSONValue.self { return .json(value as! JSONValue) }
        if T.self == Int.self { return .integer(value as! Int) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Double.self {
            return try number(value as! Double, path: { WireEncoder.path(parent, key) })
        }
        if T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            return .raw(Array(try WireCoding.encoder.encode(value)))
        }
        let encoder = WireEncoder(parent: parent, key: key)
        try value.encode(to: encoder)
        return encoder.value
    }

    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: F, path: () -> [any CodingKey]
    ) throws -> WireValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: path(), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

final class WireObject {
    var keys: [String] = []
    var values: [WireValue] = []

    func set(_ key: String, _ value: WireValue) {
        keys.append(key)
        values.append(value)
    }
}

final class WireArray {
    var items: [WireValue] = []
}

/// The `Encoder` handed to each value's `encode(to:)`.
final class WireEncoder: Encoder {
    let parent: WireEncoder?
    let key: (any CodingKey)?
    var value: WireValue?

    init(parent: WireEncoder?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] { Self.path(parent, key) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func path(_ parent: WireEncoder?, _ key: (any CodingKey)?) -> [any CodingKey] {
        var keys: [any CodingKey] = key.map { [$0] } ?? []
        var encoder = parent
        while let current = encoder {
            if let key = current.key { keys.append(key) }
            encoder = current.parent
        }
        return keys.reversed()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: WireObject
        if case .object(let existing) = value {
            object = existing
        } else {
            object = WireObject()
            value = .object(object)
        }
        return KeyedEncodingContainer(WireKeyedContainer<Key>(object: object, encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: WireArray
        if case .array(let existing) = value {
            array = existing
        } else {
            array = WireArray()
            value = .array(array)
        }
        return WireUnkeyedContainer(array: array, encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { WireSingleValueContainer(encoder: self) }

    /// The value nested under `key`: an encoding that wrote nothing is an empty object, as in Foundation.
    func nested<T: Encodable>(_ value: T, key: any CodingKey) throws -> WireValue {
        try WireValue.box(value, encoder: self, key: key) ?? .object(WireObject())
    }
}

struct WireIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct WireKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: WireObject
    let encoder: WireEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .integer(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(key.stringValue, .number(value.description)) }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(key.stringValue, try WireValue.number(value, path: { WireEncoder.path(encoder, key) }))
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(key.stringValue, try WireValue.number(value, path: { WireEncoder.path(encoder, key) }))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try encoder.nested(value, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = WireObject()
        object.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(
            WireKeyedContainer<NestedKey>(object: nested, encoder: WireEncoder(parent: encoder, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = WireArray()
        object.set(key.stringValue, .array(nested))
        return WireUnkeyedContainer(array: nested, encoder: WireEncoder(parent: encoder, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyKey(stringValue: "super")
        let sub = WireEncoder(parent: encoder, key: key)
        object.set(key.stringValue, .deferred(sub))
        return sub
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let sub = WireEncoder(parent: encoder, key: key)
        object.set(key.stringValue, .deferred(sub))
        return sub
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

struct WireUnkeyedContainer: UnkeyedEncodingContainer {
    let array: WireArray
    let encoder: WireEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.items.count }

    private var nextKey: WireIndexKey { WireIndexKey(index: array.items.count) }

    mutating func encodeNil() throws { array.items.append(.null) }
    mutating func encode(_ value: Bool) throws { array.items.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
    mutating func encode(_ value: Int) throws { array.items.append(.integer(value)) }
    mutating func encode(_ value: Int8) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: Int16) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: Int32) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: Int64) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: UInt) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: UInt8) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: UInt16) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: UInt32) throws { array.items.append(.number(value.description)) }
    mutating func encode(_ value: UInt64) throws { array.items.append(.number(value.description)) }

    mutating func encode(_ value: Double) throws {
        let key = nextKey
        array.items.append(try WireValue.number(value, path: { WireEncoder.path(encoder, key) }))
    }

    mutating func encode(_ value: Float) throws {
        let key = nextKey
        array.items.append(try WireValue.number(value, path: { WireEncoder.path(encoder, key) }))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try encoder.nested(value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = WireObject()
        let key = nextKey
        array.items.append(.object(nested))
        return KeyedEncodingContainer(
            WireKeyedContainer<NestedKey>(object: nested, encoder: WireEncoder(parent: encoder, key: key)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = WireArray()
        let key = nextKey
        array.items.append(.array(nested))
        return WireUnkeyedContainer(array: nested, encoder: WireEncoder(parent: encoder, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        let sub = WireEncoder(parent: encoder, key: nextKey)
        array.items.append(.deferred(sub))
        return sub
    }
}

struct WireSingleValueContainer: SingleValueEncodingContainer {
    let encoder: WireEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    func encodeNil() throws { encoder.value = .null }
    func encode(_ value: Bool) throws { encoder.value = .bool(value) }
    func encode(_ value: String) throws { encoder.value = .string(value) }
    func encode(_ value: Int) throws { encoder.value = .integer(value) }
    func encode(_ value: Int8) throws { encoder.value = .number(value.description) }
    func encode(_ value: Int16) throws { encoder.value = .number(value.description) }
    func encode(_ value: Int32) throws { encoder.value = .number(value.description) }
    func encode(_ value: Int64) throws { encoder.value = .number(value.description) }
    func encode(_ value: UInt) throws { encoder.value = .number(value.description) }
    func encode(_ value: UInt8) throws { encoder.value = .number(value.description) }
    func encode(_ value: UInt16) throws { encoder.value = .number(value.description) }
    func encode(_ value: UInt32) throws { encoder.value = .number(value.description) }
    func encode(_ value: UInt64) throws { encoder.value = .number(value.description) }
    func encode(_ value: Double) throws { encoder.value = try WireValue.number(value, path: { encoder.codingPath }) }
    func encode(_ value: Float) throws { encoder.value = try WireValue.number(value, path: { encoder.codingPath }) }

    func encode<T: Encodable>(_ value: T) throws {
        // The value stands in for this encoder's own: no key of its own in the path.
        encoder.value = try WireValue.box(value, encoder: encoder.parent, key: encoder.key) ?? .object(WireObject())
    }
}
