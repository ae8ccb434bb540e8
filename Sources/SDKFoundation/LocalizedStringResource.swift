import Foundation

/// Foundation's `LocalizedStringResource` (iOS 16), which swift-corelibs-foundation lacks:
/// a string to show a person, with the key it is looked up by. AppIntents (titles,
/// descriptions, parameter titles) and ActivityKit use it; both re-export this module, so an
/// extension that imports either writes `static var title: LocalizedStringResource = "Done"`
/// as on a device. There is no string table on Linux: the value is the key (or the default
/// value given), interpolations included.
public struct LocalizedStringResource: Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByStringInterpolation
{
    /// The key a string table would look the string up by.
    public var key: String
    /// The string shown when no table has the key: here, always.
    public var defaultValue: String
    public var table: String?
    public var locale: Locale

    public init(_ key: String, defaultValue: String? = nil, table: String? = nil, locale: Locale = .current, comment: StaticString? = nil) {
        self.key = key
        self.defaultValue = defaultValue ?? key
        self.table = table
        self.locale = locale
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    public var description: String { defaultValue }

    private enum CodingKeys: String, CodingKey { case key, defaultValue, table }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue) ?? key
        table = try container.decodeIfPresent(String.self, forKey: .table)
        locale = .current
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(defaultValue, forKey: .defaultValue)
        try container.encodeIfPresent(table, forKey: .table)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key == rhs.key && lhs.defaultValue == rhs.defaultValue && lhs.table == rhs.table
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(defaultValue)
        hasher.combine(table)
    }
}

extension String {
    /// `String(localized:)`: the resource's text.
    public init(localized resource: LocalizedStringResource) {
        self = resource.defaultValue
    }
}
