import WidgetHostProtocol

/// What fills text, shapes and backgrounds: a colour, a gradient, a hierarchical level
/// (`.secondary`), the system fills (`.fill.tertiary`), the tint.
public protocol ShapeStyle: Sendable {
    /// The style as the archive records it.
    var _archivedStyle: ArchiveStyle { get }
}

func archiveStyle<S: ShapeStyle>(_ style: S) -> ArchiveStyle { style._archivedStyle }

/// `.primary`, `.secondary`, `.tertiary`, `.quaternary`, `.quinary`: the foreground's levels.
public struct HierarchicalShapeStyle: ShapeStyle, Hashable {
    let level: Int
    public static let primary = HierarchicalShapeStyle(level: 1)
    public static let secondary = HierarchicalShapeStyle(level: 2)
    public static let tertiary = HierarchicalShapeStyle(level: 3)
    public static let quaternary = HierarchicalShapeStyle(level: 4)
    public static let quinary = HierarchicalShapeStyle(level: 5)
    public var _archivedStyle: ArchiveStyle { ArchiveStyle(.hierarchical(level)) }
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { HierarchicalShapeStyle(level: 1) }
    public static var secondary: HierarchicalShapeStyle { HierarchicalShapeStyle(level: 2) }
    public static var tertiary: HierarchicalShapeStyle { HierarchicalShapeStyle(level: 3) }
    public static var quaternary: HierarchicalShapeStyle { HierarchicalShapeStyle(level: 4) }
    public static var quinary: HierarchicalShapeStyle { HierarchicalShapeStyle(level: 5) }
}

/// `.fill`: the system's fill colours, the usual widget background (`.fill.tertiary`).
public struct FillShapeStyle: ShapeStyle, Hashable {
    public init() {}
    public var _archivedStyle: ArchiveStyle { ArchiveStyle(.fill(1)) }
}

extension ShapeStyle where Self == FillShapeStyle {
    public static var fill: FillShapeStyle { FillShapeStyle() }
}

/// `.tint`: the accent colour.
public struct TintShapeStyle: ShapeStyle, Hashable {
    public init() {}
    public var _archivedStyle: ArchiveStyle { ArchiveStyle(.tint) }
}

extension ShapeStyle where Self == TintShapeStyle {
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

/// A style at another hierarchical level: `.fill.tertiary`, `Color.blue.secondary`.
public struct _LeveledShapeStyle: ShapeStyle {
    let base: ArchiveStyle
    let level: Int

    public var _archivedStyle: ArchiveStyle {
        switch base.kind {
        case .fill: return ArchiveStyle(.fill(level), opacity: base.opacity)
        case .hierarchical(let baseLevel): return ArchiveStyle(.hierarchical(min(5, baseLevel + level - 1)), opacity: base.opacity)
        default:
            // A colour's levels are the colour at the opacities of the system's label levels.
            let opacities = [1.0, 0.6, 0.3, 0.18, 0.1]
            return ArchiveStyle(base.kind, opacity: base.opacity * opacities[level - 1])
        }
    }
}

/// A style with an opacity: `.secondary.opacity(0.5)`.
public struct _OpacityShapeStyle: ShapeStyle {
    let base: ArchiveStyle
    let opacity: Double
    public var _archivedStyle: ArchiveStyle { ArchiveStyle(base.kind, opacity: base.opacity * opacity) }
}

extension ShapeStyle {
    public var secondary: _LeveledShapeStyle { _LeveledShapeStyle(base: _archivedStyle, level: 2) }
    public var tertiary: _LeveledShapeStyle { _LeveledShapeStyle(base: _archivedStyle, level: 3) }
    public var quaternary: _LeveledShapeStyle { _LeveledShapeStyle(base: _archivedStyle, level: 4) }
    public var quinary: _LeveledShapeStyle { _LeveledShapeStyle(base: _archivedStyle, level: 5) }

    public func opacity(_ opacity: Double) -> _OpacityShapeStyle {
        _OpacityShapeStyle(base: _archivedStyle, opacity: opacity.isFinite ? min(1, max(0, opacity)) : 1)
    }
}

/// A type-erased style.
public struct AnyShapeStyle: ShapeStyle {
    public let _archivedStyle: ArchiveStyle
    public init<S: ShapeStyle>(_ style: S) { _archivedStyle = style._archivedStyle }
}

/// Gradient colour stops.
public struct Gradient: Sendable, Hashable {
    public struct Stop: Sendable, Hashable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) {
            self.color = color
            self.location = location
        }
    }

    public var stops: [Stop]

    public init(colors: [Color]) {
        let last = max(1, colors.count - 1)
        stops = colors.enumerated().map { Stop(color: $0.element, location: CGFloat($0.offset) / CGFloat(last)) }
    }

    public init(stops: [Stop]) { self.stops = stops }

    var archived: [ArchiveStyle.GradientStop] {
        stops.map { ArchiveStyle.GradientStop(color: $0.color.archived, location: finite($0.location) ?? 0) }
    }
}

/// A linear gradient: a view that fills its space, and a style.
public struct LinearGradient: _PrimitiveView, ShapeStyle {
    let gradient: Gradient
    let startPoint: UnitPoint
    let endPoint: UnitPoint

    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient
        self.startPoint = startPoint
        self.endPoint = endPoint
    }

    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }

    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    public var _archivedStyle: ArchiveStyle {
        ArchiveStyle(.linearGradient(stops: gradient.archived, start: startPoint.archived, end: endPoint.archived))
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.fill(_archivedStyle)) }
}

extension ShapeStyle where Self == LinearGradient {
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }

    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }

    public static func linearGradient(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(stops: stops, startPoint: startPoint, endPoint: endPoint)
    }
}
