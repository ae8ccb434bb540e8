import Foundation

extension JSONValueDecoder {
    /// One value of any type: the scalars, dates and `JSONValue` at once (no decoder, no coding
    /// path built), anything else through its own `init(from:)`.
    static func unbox<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: @autoclosure () -> CodingPath) throws -> T {
        if T.self == String.self { return try string(value, path()) as! T }
        if T.self == Int.self { return try integer(value, as: Int.self, path: path()) as! T }
        if T.self == Date.self { return try date(value, path: path()) as! T }
        if T.self == Bool.self { return try bool(value, path()) as! T }
        if T.self == Double.self { return try double(value, path: path()) as! T }
        if T.self == JSONValue.self { return try normalized(value, path: path()) as! T }
        if T.self == [String: JSONValue].self, case .object = value {
            guard case .object(let members) = try normalized(value, path: path()) else { fatalError("an object stays one") }
            return members as! T
        }
        if T.self == URL.self || T.self == Data.self || T.self == Decimal.self {
            return try foundation(T.self, value, path: path())
        }
        if let dictionary = T.self as? any StringKeyedDictionary.Type, case .object(let members) = value {
            return try dictionary.decode(members, path: path()) as! T
        }
        return try T(from: ValueDecoder(value: value, path: path()))
    }

    /// An object's keys in the order its text has them (`WireEncoder` sorts them by their
    /// UTF-8 bytes): the order Foundation meets them in, so the first bad member it reports.
    static func textOrder(_ keys: some Sequence<String>) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func string(_ value: JSONValue, _ path: @autoclosure () -> CodingPath) throws -> String {
        switch value {
        case .string(let string): return string
        case .null: throw valueNotFound(String.self, path())
        default: throw typeMismatch(String.self, value, path())
        }
    }

    /// A null where a `Bool` was expected is a type mismatch in Foundation, not a missing value.
    static func bool(_ value: JSONValue, _ path: @autoclosure () -> CodingPath) throws -> Bool {
        guard case .bool(let bool) = value else { throw typeMismatch(Bool.self, value, path()) }
        return bool
    }
}

/// The `Decoder` a type's `init(from:)` is given: one value and where it sits.
struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let path: CodingPath

    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let members): return KeyedDecodingContainer(KeyedContainer<Key>(members: members, path: path))
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self,
                .init(codingPath: path.keys, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default: throw JSONValueDecoder.typeMismatch([String: Any].self, value, path)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let items): return UnkeyedContainer(items: items, path: path)
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self,
                .init(codingPath: path.keys, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default: throw JSONValueDecoder.typeMismatch([Any].self, value, path)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try JSONValueDecoder.bool(value, path) }
    func decode(_ type: String.Type) throws -> String { try JSONValueDecoder.string(value, path) }
    func decode(_ type: Double.Type) throws -> Double { try JSONValueDecoder.double(value, path: path) }
    func decode(_ type: Float.Type) throws -> Float { try JSONValueDecoder.float(value, path: path) }
    func decode(_ type: Int.Type) throws -> Int { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONValueDecoder.integer(value, as: type, path: path) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONValueDecoder.unbox(T.self, value, path) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let path: CodingPath

    var codingPath: [any CodingKey] { path.keys }
    var allKeys: [Key] { JSONValueDecoder.textOrder(members.keys).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: path.keys, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try JSONValueDecoder.bool(value(key), path.appending(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try JSONValueDecoder.string(value(key), path.appending(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try JSONValueDecoder.double(value(key), path: path.appending(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try JSONValueDecoder.float(value(key), path: path.appending(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try JSONValueDecoder.integer(value(key), as: type, path: path.appending(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONValueDecoder.unbox(T.self, value(key), path.appending(key))
    }

    /// One lookup: nil for a missing key or a null, as the protocol's own version (`contains`,
    /// then `decodeNil`) gives.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return try JSONValueDecoder.unbox(T.self, value, path.appending(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: value(key), path: path.appending(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(key), path: path.appending(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members[PathKey.superKey.stringValue] ?? .null, path: path.appending(PathKey.superKey))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, path: path.appending(key))
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let path: CodingPath
    private(set) var currentIndex = 0

    init(items: [JSONValue], path: CodingPath) {
        self.items = items
        self.path = path
    }

    var codingPath: [any CodingKey] { path.keys }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private var here: CodingPath { .index(currentIndex, path) }

    /// The next element; the index moves on only once it has been read.
    private func next(_ type: Any.Type, _ what: String = "Unkeyed container is at end.") throws -> JSONValue {
        guard currentIndex < items.count else {
            throw DecodingError.valueNotFound(type, .init(codingPath: here.keys, debugDescription: what))
        }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try next(Never.self) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let result = try JSONValueDecoder.bool(next(type), here)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let result = try JSONValueDecoder.string(next(type), here)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let result = try JSONValueDecoder.double(next(type), path: here)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let result = try JSONValueDecoder.float(next(type), path: here)
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let result = try JSONValueDecoder.integer(next(type), as: type, path: here)
        currentIndex += 1
        return result
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try JSONValueDecoder.unbox(T.self, next(type), here)
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let value = try next(KeyedDecodingContainer<NestedKey>.self)
        let result = try ValueDecoder(value: value, path: here).container(keyedBy: type)
        currentIndex += 1
        return result
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try next((any UnkeyedDecodingContainer).self)
        let result = try ValueDecoder(value: value, path: here).unkeyedContainer()
        currentIndex += 1
        return result
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try next((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let result = ValueDecoder(value: value, path: here)
        currentIndex += 1
        return result
    }
}

/// A dictionary with `String` keys, read member by member without a keyed container, and, when
/// members are bad, the first of them in the text's order reported, as Foundation reports it
/// (a key that reads as a number, "10", is at path key `[10]` in both).
protocol StringKeyedDictionary {
    static func decode(_ members: [String: JSONValue], path: CodingPath) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static func decode(_ members: [String: JSONValue], path: CodingPath) throws -> Self {
        var result = Self(minimumCapacity: members.count)
        do {
            for (key, member) in members {
                result[key] = try JSONValueDecoder.unbox(Value.self, member, .key(key, Int(key), path))
            }
        } catch {
            for key in JSONValueDecoder.textOrder(members.keys) {
                _ = try JSONValueDecoder.unbox(Value.self, members[key]!, .key(key, Int(key), path))
            }
            throw error
        }
        return result
    }
}
