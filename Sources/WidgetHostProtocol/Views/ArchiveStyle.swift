import Foundation

/// A colour in an archive: an sRGB value, one of SwiftUI's system colours (which adapt to
/// light and dark), or a named asset colour ("AccentColor"). The host never copies a colour
/// string into a page: it maps names it knows and draws anything else grey.
public struct ArchiveColor: Sendable, Hashable, Codable {
    public enum Value: Sendable, Hashable {
        /// sRGB components, 0…1.
        case rgb(red: Double, green: Double, blue: Double)
        /// `Color.red`, `.primary`, `.accentColor`, `.clear`, …
        case system(String)
        /// `Color("AccentColor")`: an asset catalog colour.
        case named(String)
    }

    public var value: Value
    public var opacity: Double

    public init(_ value: Value, opacity: Double = 1) {
        self.value = value
        self.opacity = opacity
    }

    private enum CodingKeys: String, CodingKey { case rgb, system, named, opacity }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        opacity = container.number(.opacity) ?? 1
        if let rgb = container.lenient([Double].self, .rgb), rgb.count == 3, rgb.allSatisfy(\.isFinite) {
            value = .rgb(red: rgb[0], green: rgb[1], blue: rgb[2])
        } else if let name = container.lenient(String.self, .system) {
            value = .system(name)
        } else if let name = container.lenient(String.self, .named) {
            value = .named(name)
        } else {
            value = .system("(unknown)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch value {
        case .rgb(let red, let green, let blue): try container.encode([red, green, blue], forKey: .rgb)
        case .system(let name): try container.encode(name, forKey: .system)
        case .named(let name): try container.encode(name, forKey: .named)
        }
        if opacity != 1 { try container.encode(opacity, forKey: .opacity) }
    }

    /// The system colours' names a host draws (`Color.red`, `.primary`, `.accentColor`, …).
    public static let systemNames: Set<String> = [
        "black", "white", "clear", "gray", "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo",
        "purple", "pink", "brown", "primary", "secondary", "accentColor",
    ]

    /// The longest asset colour name the host accepts, in UTF-8 bytes (ours).
    public static let maxNameBytes = 256

    /// A colour a host can draw: sRGB components and opacity finite and within 0…1, a system
    /// colour the host knows, or an asset colour's name of 1…`maxNameBytes` bytes. What the
    /// decoder could not read as a colour is none of these.
    public var isDrawable: Bool {
        func unit(_ value: Double) -> Bool { value.isFinite && value >= 0 && value <= 1 }
        guard unit(opacity) else { return false }
        switch value {
        case .rgb(let red, let green, let blue): return unit(red) && unit(green) && unit(blue)
        case .system(let name): return Self.systemNames.contains(name)
        case .named(let name): return !name.isEmpty && name.utf8.count <= Self.maxNameBytes
        }
    }

    /// An optional colour under `key`: absent or null is nil (the system's colour); anything
    /// else that is not a colour decodes as one no host draws (`isDrawable` false), so that a
    /// validator can refuse it instead of the value silently meaning "the default".
    public static func optional<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> ArchiveColor? {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
        return (try? container.decode(ArchiveColor.self, forKey: key)) ?? ArchiveColor(.system("(not a colour)"))
    }
}

/// A `ShapeStyle`: what fills text, shapes and backgrounds.
public struct ArchiveStyle: Sendable, Hashable, Codable {
    public enum Kind: Sendable, Hashable {
        case color(ArchiveColor)
        /// `.primary` (1), `.secondary` (2), `.tertiary` (3), `.quaternary` (4), `.quinary` (5).
        case hierarchical(Int)
        /// `.fill` (1), `.fill.secondary` (2), `.fill.tertiary` (3), …: the system's fill colours.
        case fill(Int)
        /// `.tint`: the accent colour.
        case tint
        case linearGradient(stops: [GradientStop], start: ArchiveUnitPoint, end: ArchiveUnitPoint)
        case unknown(String)
    }

    public struct GradientStop: Sendable, Hashable, Codable {
        public var color: ArchiveColor
        public var location: Double
        public init(color: ArchiveColor, location: Double) {
            self.color = color
            self.location = location
        }
    }

    public var kind: Kind
    public var opacity: Double

    public init(_ kind: Kind, opacity: Double = 1) {
        self.kind = kind
        self.opacity = opacity
    }

    private enum CodingKeys: String, CodingKey { case type, color, level, stops, startPoint, endPoint, opacity }

    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            self.init(.unknown("(not an object)"))
            return
        }
        let type = container.lenient(String.self, .type) ?? "(missing type)"
        let level = container.lenient(Int.self, .level).map { min(max($0, 1), 5) } ?? 1
        let kind: Kind
        switch type {
        case "color":
            kind = container.lenient(ArchiveColor.self, .color).map(Kind.color) ?? .unknown(type)
        case "hierarchical": kind = .hierarchical(level)
        case "fill": kind = .fill(level)
        case "tint": kind = .tint
        case "linearGradient":
            kind = .linearGradient(
                stops: container.lenient([GradientStop].self, .stops) ?? [],
                start: container.lenient(ArchiveUnitPoint.self, .startPoint) ?? .top,
                end: container.lenient(ArchiveUnitPoint.self, .endPoint) ?? .bottom)
        default: kind = .unknown(type)
        }
        self.init(kind, opacity: container.number(.opacity) ?? 1)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .color(let color):
            try container.encode("color", forKey: .type)
            try container.encode(color, forKey: .color)
        case .hierarchical(let level):
            try container.encode("hierarchical", forKey: .type)
            try container.encode(level, forKey: .level)
        case .fill(let level):
            try container.encode("fill", forKey: .type)
            try container.encode(level, forKey: .level)
        case .tint:
            try container.encode("tint", forKey: .type)
        case .linearGradient(let stops, let start, let end):
            try container.encode("linearGradient", forKey: .type)
            try container.encode(stops, forKey: .stops)
            try container.encode(start, forKey: .startPoint)
            try container.encode(end, forKey: .endPoint)
        case .unknown(let type):
            try container.encode(type, forKey: .type)
        }
        if opacity != 1 { try container.encode(opacity, forKey: .opacity) }
    }
}

/// A point in a view's unit square: (0, 0) is the top leading corner.
public struct ArchiveUnitPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let top = ArchiveUnitPoint(x: 0.5, y: 0)
    public static let bottom = ArchiveUnitPoint(x: 0.5, y: 1)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x = container.number(.x) ?? 0.5
        y = container.number(.y) ?? 0.5
    }

    private enum CodingKeys: String, CodingKey { case x, y }
}

/// A font: a text style (`.headline`) or a size, with weight, design and traits.
/// Names the host does not know fall back to `body` / regular / default.
public struct ArchiveFont: Sendable, Hashable, Codable {
    /// `largeTitle`, `title`, `title2`, `title3`, `headline`, `subheadline`, `body`,
    /// `callout`, `footnote`, `caption`, `caption2`.
    public var style: String?
    public var size: Double?
    /// `ultraLight`, `thin`, `light`, `regular`, `medium`, `semibold`, `bold`, `heavy`, `black`.
    public var weight: String?
    /// `default`, `rounded`, `serif`, `monospaced`.
    public var design: String?
    public var italic: Bool?
    public var monospacedDigit: Bool?

    public init(
        style: String? = nil, size: Double? = nil, weight: String? = nil, design: String? = nil,
        italic: Bool? = nil, monospacedDigit: Bool? = nil
    ) {
        self.style = style
        self.size = size
        self.weight = weight
        self.design = design
        self.italic = italic
        self.monospacedDigit = monospacedDigit
    }

    private enum CodingKeys: String, CodingKey { case style, size, weight, design, italic, monospacedDigit }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        style = container.lenient(String.self, .style)
        size = container.number(.size)
        weight = container.lenient(String.self, .weight)
        design = container.lenient(String.self, .design)
        italic = container.lenient(Bool.self, .italic)
        monospacedDigit = container.lenient(Bool.self, .monospacedDigit)
    }
}

/// A shape: for `Circle()` and friends as views, `clipShape`, and `background(_:in:)`.
public struct ArchiveShape: Sendable, Hashable, Codable {
    /// `rectangle`, `roundedRectangle`, `circle`, `ellipse`, `capsule`, `containerRelative`.
    public var type: String
    public var cornerRadius: Double?

    public init(type: String, cornerRadius: Double? = nil) {
        self.type = type
        self.cornerRadius = cornerRadius
    }

    private enum CodingKeys: String, CodingKey { case type, cornerRadius }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = container.lenient(String.self, .type) ?? "rectangle"
        cornerRadius = container.number(.cornerRadius)
    }
}

/// A frame length: points, or `"infinity"` (`maxWidth: .infinity`).
public enum ArchiveLength: Sendable, Hashable, Codable {
    case points(Double)
    case infinity

    public init(_ value: Double) {
        self = value.isInfinite ? .infinity : .points(value)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Double.self), value.isFinite {
            self = .points(value)
        } else if (try? container.decode(String.self)) == "infinity" {
            self = .infinity
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a length is a number or \"infinity\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .points(let value): try container.encode(value)
        case .infinity: try container.encode("infinity")
        }
    }
}
