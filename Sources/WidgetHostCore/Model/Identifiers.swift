/// A widget instance's id, assigned by the host from a counter (`w1`, `w2`, …).
public struct WidgetID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    /// The numeric suffix, read once: ids are compared on every heap operation and sort.
    private let number: Int?

    public init(_ rawValue: String) {
        self.rawValue = rawValue
        number = Int(rawValue.drop(while: { !$0.isNumber }))
    }
    public init(stringLiteral value: String) { self.init(value) }
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (lhs: WidgetID, rhs: WidgetID) -> Bool {
        // w2 before w10: compare numeric suffixes when both have one.
        if let l = lhs.number, let r = rhs.number, l != r { return l < r }
        return lhs.rawValue < rhs.rawValue
    }
    public static func == (lhs: WidgetID, rhs: WidgetID) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Equal ids have equal numbers, so hashing the number alone is consistent with `==`, and
    /// cheaper than hashing the text (ids are hashed on every record lookup).
    public func hash(into hasher: inout Hasher) {
        if let number { hasher.combine(number) } else { hasher.combine(rawValue) }
    }
}

/// Identifies one request sent to an extension process; from a counter, never reused in a run.
public struct RequestID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let value: Int
    public init(_ value: Int) { self.value = value }
    public var description: String { "#\(value)" }
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.value < rhs.value }
}
