/// The sizes and shapes a widget can take, with WidgetKit's names.
public enum WidgetFamily: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case systemSmall
    case systemMedium
    case systemLarge
    case systemExtraLarge
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline

    /// Point size on the reference device, an iPhone 15 Pro (393 × 852 pt);
    /// `systemExtraLarge` exists only on iPad and uses an 11-inch iPad's size.
    public var displaySize: DisplaySize {
        switch self {
        case .systemSmall: DisplaySize(width: 158, height: 158)
        case .systemMedium: DisplaySize(width: 338, height: 158)
        case .systemLarge: DisplaySize(width: 338, height: 354)
        case .systemExtraLarge: DisplaySize(width: 715, height: 330)
        case .accessoryCircular: DisplaySize(width: 72, height: 72)
        case .accessoryRectangular: DisplaySize(width: 172, height: 76)
        case .accessoryInline: DisplaySize(width: 257, height: 26)
        }
    }

    public var description: String { rawValue }

    /// "unknown family "huge"; known families are systemSmall, …" — shared by every edge that parses one.
    public static func parse(_ name: String) -> Result<WidgetFamily, UnknownFamily> {
        if let family = WidgetFamily(rawValue: name) { return .success(family) }
        return .failure(UnknownFamily(name: name))
    }

    public struct UnknownFamily: Error, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown widget family \"\(name)\"; known families are "
                + WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }
}

public struct DisplaySize: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
