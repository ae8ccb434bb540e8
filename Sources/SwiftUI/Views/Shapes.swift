import WidgetHostProtocol

/// A 2D shape: a view filled with the foreground style, `fill`-ed or `stroke`-d, or used to
/// clip (`clipShape`) and to shape a background (`background(_:in:)`).
public protocol Shape: _PrimitiveView, Sendable {
    var _archivedShape: ArchiveShape { get }
}

extension Shape {
    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.shape(_archivedShape, fill: nil, stroke: nil, lineWidth: nil))
    }

    public func fill<S: ShapeStyle>(_ content: S = .foreground, style: FillStyle = FillStyle()) -> _StyledShape {
        _StyledShape(shape: _archivedShape, fill: content._archivedStyle, stroke: nil, lineWidth: nil)
    }

    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _StyledShape {
        _StyledShape(shape: _archivedShape, fill: nil, stroke: content._archivedStyle, lineWidth: finite(lineWidth) ?? 1)
    }

    public func stroke(lineWidth: CGFloat = 1) -> _StyledShape {
        _StyledShape(shape: _archivedShape, fill: nil, stroke: ArchiveStyle(.hierarchical(1)), lineWidth: finite(lineWidth) ?? 1)
    }
}

/// The foreground style: what text and shapes are drawn with unless told otherwise.
public struct ForegroundStyle: ShapeStyle, Hashable {
    public init() {}
    public var _archivedStyle: ArchiveStyle { ArchiveStyle(.hierarchical(1)) }
}

extension ShapeStyle where Self == ForegroundStyle {
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

/// How a shape is filled; accepted for source compatibility (the even-odd rule is not drawn).
public struct FillStyle: Sendable, Hashable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

/// A shape with its fill or stroke.
public struct _StyledShape: _PrimitiveView {
    let shape: ArchiveShape
    let fill: ArchiveStyle?
    let stroke: ArchiveStyle?
    let lineWidth: Double?

    public func _archive(in context: _ArchiveContext) -> ViewNode {
        ViewNode(.shape(shape, fill: fill, stroke: stroke, lineWidth: lineWidth))
    }
}

public struct Rectangle: Shape {
    public init() {}
    public var _archivedShape: ArchiveShape { ArchiveShape(type: "rectangle") }
}

public enum RoundedCornerStyle: Sendable, Hashable { case circular, continuous }

public struct RoundedRectangle: Shape {
    public var cornerRadius: CGFloat
    public var style: RoundedCornerStyle
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        self.cornerRadius = cornerRadius
        self.style = style
    }
    public var _archivedShape: ArchiveShape { ArchiveShape(type: "roundedRectangle", cornerRadius: finite(cornerRadius) ?? 0) }
}

public struct Circle: Shape {
    public init() {}
    public var _archivedShape: ArchiveShape { ArchiveShape(type: "circle") }
}

public struct Ellipse: Shape {
    public init() {}
    public var _archivedShape: ArchiveShape { ArchiveShape(type: "ellipse") }
}

public struct Capsule: Shape {
    public init(style: RoundedCornerStyle = .continuous) {}
    public var _archivedShape: ArchiveShape { ArchiveShape(type: "capsule") }
}

/// The widget's own rounded rectangle, inset to the view's position.
public struct ContainerRelativeShape: Shape {
    public init() {}
    public var _archivedShape: ArchiveShape { ArchiveShape(type: "containerRelative") }
}

extension Shape where Self == Rectangle {
    public static var rect: Rectangle { Rectangle() }
}

extension Shape where Self == RoundedRectangle {
    public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }
}

extension Shape where Self == Circle {
    public static var circle: Circle { Circle() }
}

extension Shape where Self == Capsule {
    public static var capsule: Capsule { Capsule() }
}

extension Shape where Self == ContainerRelativeShape {
    public static var containerRelative: ContainerRelativeShape { ContainerRelativeShape() }
}
