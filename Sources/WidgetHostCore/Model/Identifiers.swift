/// A widget instance's id, assigned by the host from a counter (`w1`, `w2`, …).
public struct WidgetID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
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
    private var number: Int? { Int(rawValue.drop(while: { !$0.isNumber })) }
}

/// Identifies one request sent to an extension process; from a counter, never reused in a run.
public struct RequestID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let value: Int
    public init(_ value: Int) { self.value = value }
    public var description: String { "#\(value)" }
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.value < rhs.value }
}
