/// A widget instance's id, assigned by the host from a counter (`w1`, `w2`, …).
///
/// Ordered as the host assigns them: ids of the form `w` and decimal digits (that fit an
/// `Int`) first, by their number (`w2` before `w10`; `w05` before `w5`, by their text, when
/// the numbers are equal); then every other id (a restored or hand-written one) by its text.
/// A strict total order, so sorting and the deadline heap are deterministic for any ids.
public struct WidgetID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    /// The number of a `w<digits>` id, read once: ids are compared on every heap operation
    /// and sort. nil for every other id.
    private let number: Int?

    public init(_ rawValue: String) {
        self.rawValue = rawValue
        number = Self.counterNumber(rawValue)
    }
    public init(stringLiteral value: String) { self.init(value) }
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (lhs: WidgetID, rhs: WidgetID) -> Bool {
        switch (lhs.number, rhs.number) {
        case let (l?, r?) where l != r: return l < r
        case (_?, nil): return true
        case (nil, _?): return false
        default: return lhs.rawValue < rhs.rawValue
        }
    }
    public static func == (lhs: WidgetID, rhs: WidgetID) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Equal ids have equal numbers, so hashing the number alone is consistent with `==`, and
    /// cheaper than hashing the text (ids are hashed on every record lookup).
    public func hash(into hasher: inout Hasher) {
        if let number { hasher.combine(number) } else { hasher.combine(rawValue) }
    }

    /// `w` then ASCII digits only (no sign, no other numerals), within `Int`.
    private static func counterNumber(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard utf8.count > 1, utf8.first == UInt8(ascii: "w") else { return nil }
        var value = 0
        for byte in utf8.dropFirst() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}

/// Identifies one request sent to an extension process; from a counter, never reused in a run.
public struct RequestID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let value: Int
    public init(_ value: Int) { self.value = value }
    public var description: String { "#\(value)" }
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.value < rhs.value }
}
