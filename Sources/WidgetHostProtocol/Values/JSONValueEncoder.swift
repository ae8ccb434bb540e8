import Foundation

/// Builds a `JSONValue` straight from an `Encodable` value, with no JSON text in between.
/// `JSONValue(encoding:)` used to encode to bytes with `WireCoding.encoder` and parse them
/// back; for a `status` reply that was three quarters of the daemon's work (callgrind: 2.8
/// of 4.3 million instructions a request). The result is the value that round trip gave:
/// dates as RFC 3339 strings, whole numbers as `.integer` (a parsed "12" is an integer,
/// whatever type wrote it), missing optionals left out, and the same errors for values
/// JSON cannot hold (a NaN or an infinity).
enum JSONValueEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = try box(value, codingPath: [])
        guard root.scalar != nil || root.object != nil || root.array != nil else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return root.value
    }

    /// One value, by what it is: the types `WireCoding.encoder` writes in a special way first.
    fileprivate static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Node {
        switch value {
        case let date as Date: return Node(.string(RFC3339.format(date)))
        case let double as Double: return Node(try number(double, codingPath: codingPath))
        case let float as Float: return Node(try number(float, codingPath: codingPath))
        case let json as JSONValue: return Node(try normalized(json, codingPath: codingPath))
        case is URL, is Data, is Decimal:
            // Rare here; written exactly as the encoder writes them, then read back.
            return Node(try WireCoding.decoder.decode(JSONValue.self, from: WireCoding.encode(value)))
        default:
            let node = Node()
            try value.encode(to: ValueEncoder(node: node, codingPath: codingPath))
            return node
        }
    }

    /// A number as parsing its JSON text gives it back: whole numbers that fit an `Int` are `.integer`.
    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) is not a valid JSON number"))
        }
        if value.rounded() == value, abs(value) < 9.0e18, let whole = Int(exactly: value) { return .integer(whole) }
        return .number(value)
    }

    static func number(_ value: Float, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) is not a valid JSON number"))
        }
        // The encoder writes a Float's shortest text ("0.1"), which parses as that Double.
        return try number(Double("\(value)") ?? Double(value), codingPath: codingPath)
    }

    static func integer<I: BinaryInteger>(_ value: I) -> JSONValue {
        if let whole = Int(exactly: value) { return .integer(whole) }
        return .number(Double(value))
    }

    static func normalized(_ value: JSONValue, codingPath: [any CodingKey]) throws -> JSONValue {
        switch value {
        case .number(let double): return try number(double, codingPath: codingPath)
        case .array(let items): return .array(try items.map { try normalized($0, codingPath: codingPath) })
        case .object(let members): return .object(try members.mapValues { try normalized($0, codingPath: codingPath) })
        case .null, .bool, .integer, .string: return value
        }
    }
}

/// What one value became: a scalar, or an object or array still being filled by its containers.
private final class Node {
    var scalar: JSONValue?
    var object: [String: Node]?
    var array: [Node]?

    init(_ scalar: JSONValue? = nil) {
        self.scalar = scalar
    }

    var value: JSONValue {
        if let object { return .object(object.mapValues(\.value)) }
        if let array { return .array(array.map(\.value)) }
        // A value that asked for no container at all is written as {} by JSONEncoder.
        return scalar ?? .object([:])
    }
}

private struct ValueEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.object == nil {
            node.scalar = nil
            node.array = nil
            node.object = [:]
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.array == nil {
            node.scalar = nil
            node.object = nil
            node.array = []
        }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) { node.object?[key.stringValue] = Node(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try JSONValueEncoder.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try JSONValueEncoder.number(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(JSONValueEncoder.integer(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.object?[key.stringValue] = try JSONValueEncoder.box(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = Node()
        node.object?[key.stringValue] = child
        return ValueEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = Node()
        node.object?[key.stringValue] = child
        return ValueEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = Node()
        node.object?[name] = child
        return ValueEncoder(node: child, codingPath: codingPath)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.array?.count ?? 0 }

    private struct Index: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private var path: [any CodingKey] { codingPath + [Index(count)] }
    private func append(_ value: JSONValue) { node.array?.append(Node(value)) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try JSONValueEncoder.number(value, codingPath: path)) }
    mutating func encode(_ value: Float) throws { append(try JSONValueEncoder.number(value, codingPath: path)) }
    mutating func encode(_ value: Int) throws { append(.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(JSONValueEncoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = try JSONValueEncoder.box(value, codingPath: path)
        node.array?.append(child)
    }

    /// An encoder for the next element, already appended, so what it encodes lands in place.
    private func nextElementEncoder() -> ValueEncoder {
        let child = Node()
        let encoder = ValueEncoder(node: child, codingPath: path)
        node.array?.append(child)
        return encoder
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        nextElementEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextElementEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nextElementEncoder() }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue) {
        node.object = nil
        node.array = nil
        node.scalar = value
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONValueEncoder.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try JSONValueEncoder.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(JSONValueEncoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let boxed = try JSONValueEncoder.box(value, codingPath: codingPath)
        node.scalar = boxed.scalar
        node.object = boxed.object
        node.array = boxed.array
    }
}
