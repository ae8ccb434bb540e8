import Foundation

/// JSON text straight from an `Encodable` value: byte for byte what `WireCoding.encoder`
/// (Foundation's `JSONEncoder` with sorted keys, unescaped slashes and RFC 3339 dates) writes,
/// at a fraction of its cost. Foundation's encoder casts every value dynamically to find
/// dates, URLs and dictionaries, keeps a coding path per level and a dictionary per object;
/// that was most of a warm reload's 2.8 million daemon instructions (the widget record written
/// twice, the notices, the request and the replies; issue 16, callgrind).
///
/// The same rules as `JSONEncoder`: an object's keys sorted by their UTF-8 bytes, the last
/// value written for a key kept; strings escaped as `JSONWriter` escapes them (`"`, `\`, the
/// control characters; `/` and everything else as it is); a `Double` or `Float` as its
/// `description` without a trailing `.0`; a value that asked for no container at all as `{}`.
/// What it does not write itself — a URL, `Data`, `Decimal`, a number JSON cannot hold, a
/// top-level value that encodes nothing — it refuses, and `WireCoding.encode` asks Foundation's
/// encoder instead, which writes it or throws its own error. `WireEncoderTests` compares the
/// two on every kind of value the host sends and stores.
enum WireEncoder {
    /// A value this encoder leaves to Foundation's.
    struct Unsupported: Error {}

    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = try box(value)
        if case .node(let node) = root, node.isEmpty { throw Unsupported() }
        var writer = Writer()
        try writer.write(root)
        return writer.bytes
    }

    /// One value: a scalar at once, anything else through its own `encode(to:)`.
    static func box<T: Encodable>(_ value: T) throws -> Item {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return .int(Int64(value as! Int)) }
        if T.self == Date.self { return .string(RFC3339.format(value as! Date)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Double.self { return .double(value as! Double) }
        if T.self == JSONValue.self { return .json(value as! JSONValue) }
        if T.self == URL.self || T.self == Data.self || T.self == Decimal.self { throw Unsupported() }
        if let item = try payloadItem(value) { return item }
        let node = Node()
        try value.encode(to: NodeEncoder(node: node))
        return node.resolved
    }

    /// A value as it will be written.
    enum Item {
        case null
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case float(Float)
        case string(String)
        case json(JSONValue)
        case node(Node)
    }

    /// What one value's `encode(to:)` asked for: an object, an array, or a single value.
    final class Node {
        var object: [(key: String, item: Item)]?
        var array: [Item]?
        var single: Item?
        /// Containers of two kinds were asked of one value (`JSONEncoder` stops the process).
        var mixed = false

        var isEmpty: Bool { object == nil && array == nil && single == nil }

        /// A single value stands for itself; anything else stays a node until it is written.
        var resolved: Item {
            if let single, object == nil, array == nil, !mixed { return single }
            return .node(self)
        }

        func makeObject() {
            if object == nil {
                if array != nil || single != nil { mixed = true }
                object = []
                object?.reserveCapacity(8)
            }
        }

        func makeArray() {
            if array == nil {
                if object != nil || single != nil { mixed = true }
                array = []
            }
        }
    }
}

// MARK: - The encoder and its containers

private struct NodeEncoder: Encoder {
    let node: WireEncoder.Node
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(ObjectContainer<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return ArrayContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(node: node) }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: WireEncoder.Node
    var codingPath: [any CodingKey] { [] }

    private func set(_ item: WireEncoder.Item, _ key: Key) { node.object!.append((key.stringValue, item)) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.float(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.uint(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { set(try WireEncoder.box(value), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        // As `JSONEncoder`: an object already at that key is the one written to.
        let name = key.stringValue
        if let existing = node.object!.last(where: { $0.key == name }), case .node(let child) = existing.item,
            child.object != nil
        {
            return KeyedEncodingContainer(ObjectContainer<NestedKey>(node: child))
        }
        let child = WireEncoder.Node()
        child.makeObject()
        set(.node(child), key)
        return KeyedEncodingContainer(ObjectContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = key.stringValue
        if let existing = node.object!.last(where: { $0.key == name }), case .node(let child) = existing.item,
            child.array != nil
        {
            return ArrayContainer(node: child)
        }
        let child = WireEncoder.Node()
        child.makeArray()
        set(.node(child), key)
        return ArrayContainer(node: child)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = WireEncoder.Node()
        node.object!.append((name, .node(child)))
        return NodeEncoder(node: child)
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let node: WireEncoder.Node
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.array!.count }

    private func append(_ item: WireEncoder.Item) { node.array!.append(item) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    mutating func encode(_ value: Float) throws { append(.float(value)) }
    mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(value)) }
    mutating func encode(_ value: UInt) throws { append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { append(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { append(try WireEncoder.box(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = WireEncoder.Node()
        child.makeObject()
        append(.node(child))
        return KeyedEncodingContainer(ObjectContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = WireEncoder.Node()
        child.makeArray()
        append(.node(child))
        return ArrayContainer(node: child)
    }

    mutating func superEncoder() -> any Encoder {
        let child = WireEncoder.Node()
        append(.node(child))
        return NodeEncoder(node: child)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: WireEncoder.Node
    var codingPath: [any CodingKey] { [] }

    private func set(_ item: WireEncoder.Item) {
        if node.object != nil || node.array != nil { node.mixed = true }
        node.single = item
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.float(value)) }
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { set(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try WireEncoder.box(value)) }
}
