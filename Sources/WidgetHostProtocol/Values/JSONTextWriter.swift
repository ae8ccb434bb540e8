import Foundation

/// JSON text written piece by piece, each piece exactly as `WireEncoder` writes it (and so as
/// `JSONEncoder` with `WireCoding`'s settings does), for a caller that writes the members of
/// an object it knows itself, in the encoder's key order, instead of going through `Encoder`:
/// every object through `Encoder` costs a node, a box per container, generic metadata for its
/// keys and a sort. The state store writes its records this way (about 90,000 instructions a
/// widget record through `WireEncoder`, issue 16's fill). What the caller writes between the
/// pieces (`{`, `,`, a key's quotes) is its own business: `WireEncoderTests`-style
/// comparisons with `WireCoding.encodeBytes` are its test.
public struct JSONTextWriter {
    private var writer = WireEncoder.Writer()

    /// Room for `capacity` bytes before the first reallocation.
    public init(reservingCapacity capacity: Int = 512) {
        writer.bytes.reserveCapacity(capacity)
    }

    /// The text so far.
    public var bytes: [UInt8] { writer.bytes }
    /// How many bytes are written.
    public var count: Int { writer.bytes.count }

    /// ASCII as it is: punctuation, or a key already known not to need escaping.
    public mutating func append(_ text: StaticString) { writer.append(text) }
    /// One byte as it is.
    public mutating func append(_ byte: UInt8) { writer.bytes.append(byte) }
    /// JSON text made earlier, as it is.
    public mutating func append(contentsOf text: [UInt8]) { writer.bytes.append(contentsOf: text) }
    /// The bytes from `start` on (to keep what a member wrote).
    public func suffix(from start: Int) -> [UInt8] { Array(writer.bytes[start...]) }
    /// Drops everything from `count` on (a member given up half-written).
    public mutating func truncate(to count: Int) { writer.bytes.removeSubrange(count...) }

    /// A string, quoted and escaped.
    public mutating func string(_ value: String) { writer.writeString(value) }
    /// A date as `WireCoding` writes one: its RFC 3339 text, quoted (it never needs escaping).
    public mutating func date(_ value: Date) { writer.writeDate(value) }
    public mutating func integer(_ value: Int) { writer.writeInteger(Int64(value)) }
    public mutating func bool(_ value: Bool) { writer.append(value ? "true" : "false") }
    /// A `Double` as `JSONEncoder` writes it; throws for NaN and the infinities (which
    /// `WireCoding` leaves to Foundation's encoder, which refuses them).
    public mutating func number(_ value: Double) throws { try writer.writeFloating(value) }
    /// A `JSONValue`, its object keys sorted.
    public mutating func json(_ value: JSONValue) throws { try writer.write(value) }
    /// Any value through `WireEncoder`; throws where `WireEncoder` leaves the value to
    /// Foundation's encoder (then use `WireCoding.encodeBytes` for it).
    public mutating func value<T: Encodable>(_ value: T) throws {
        let item = try WireEncoder.box(value)
        if case .node(let node) = item, node.isEmpty { throw WireEncoder.Unsupported() }
        try writer.write(item)
    }
}
