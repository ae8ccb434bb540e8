import WidgetHostProtocol

/// A colour: a view that fills its space, and a `ShapeStyle`. System colours keep their
/// names in the archive, so the host draws the light or dark variant it is showing.
public struct Color: _PrimitiveView, ShapeStyle, Sendable, Hashable {
    var archived: ArchiveColor

    init(_ archived: ArchiveColor) { self.archived = archived }

    init(system name: String) { archived = ArchiveColor(.system(name)) }

    public enum RGBColorSpace: Sendable, Hashable { case sRGB, sRGBLinear, displayP3 }

    public init(_ colorSpace: RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {
        archived = ArchiveColor(
            .rgb(red: Self.unit(red), green: Self.unit(green), blue: Self.unit(blue)), opacity: Self.unit(opacity))
    }

    public init(_ colorSpace: RGBColorSpace = .sRGB, white: Double, opacity: Double = 1) {
        self.init(colorSpace, red: white, green: white, blue: white, opacity: opacity)
    }

    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        let (red, green, blue) = Self.rgb(hue: Self.unit(hue), saturation: Self.unit(saturation), brightness: Self.unit(brightness))
        self.init(.sRGB, red: red, green: green, blue: blue, opacity: opacity)
    }

    /// An asset catalog colour; the host knows "AccentColor" and draws others grey.
    public init(_ name: String, bundle: Bundle? = nil) { archived = ArchiveColor(.named(name)) }

    public func opacity(_ opacity: Double) -> Color {
        var copy = self
        copy.archived.opacity *= Self.unit(opacity)
        return copy
    }

    public static let black = Color(system: "black")
    public static let white = Color(system: "white")
    public static let gray = Color(system: "gray")
    public static let red = Color(system: "red")
    public static let orange = Color(system: "orange")
    public static let yellow = Color(system: "yellow")
    public static let green = Color(system: "green")
    public static let mint = Color(system: "mint")
    public static let teal = Color(system: "teal")
    public static let cyan = Color(system: "cyan")
    public static let blue = Color(system: "blue")
    public static let indigo = Color(system: "indigo")
    public static let purple = Color(system: "purple")
    public static let pink = Color(system: "pink")
    public static let brown = Color(system: "brown")
    public static let clear = Color(system: "clear")
    public static let primary = Color(system: "primary")
    public static let secondary = Color(system: "secondary")
    public static let accentColor = Color(system: "accentColor")

    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.fill(archivedStyle)) }

    public var _archivedStyle: ArchiveStyle { ArchiveStyle(.color(archived)) }
    /// The colour as an archive carries it (for WidgetKit's Live Activity tints).
    public var _archivedColor: ArchiveColor { archived }

    var archivedStyle: ArchiveStyle { _archivedStyle }

    private static func unit(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }

    private static func rgb(hue: Double, saturation: Double, brightness: Double) -> (Double, Double, Double) {
        let sector = (hue * 6).truncatingRemainder(dividingBy: 6)
        let chroma = brightness * saturation
        let x = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let m = brightness - chroma
        let (r, g, b): (Double, Double, Double) =
            switch Int(sector) {
            case 0: (chroma, x, 0)
            case 1: (x, chroma, 0)
            case 2: (0, chroma, x)
            case 3: (0, x, chroma)
            case 4: (x, 0, chroma)
            default: (chroma, 0, x)
            }
        return (r + m, g + m, b + m)
    }
}

extension ShapeStyle where Self == Color {
    public static var black: Color { Color(system: "black") }
    public static var white: Color { Color(system: "white") }
    public static var gray: Color { Color(system: "gray") }
    public static var red: Color { Color(system: "red") }
    public static var orange: Color { Color(system: "orange") }
    public static var yellow: Color { Color(system: "yellow") }
    public static var green: Color { Color(system: "green") }
    public static var mint: Color { Color(system: "mint") }
    public static var teal: Color { Color(system: "teal") }
    public static var cyan: Color { Color(system: "cyan") }
    public static var blue: Color { Color(system: "blue") }
    public static var indigo: Color { Color(system: "indigo") }
    public static var purple: Color { Color(system: "purple") }
    public static var pink: Color { Color(system: "pink") }
    public static var brown: Color { Color(system: "brown") }
    public static var clear: Color { Color(system: "clear") }
}
