import WidgetHostProtocol

extension View {
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { _modifier(.foregroundStyle(style._archivedStyle)) }

    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> some View {
        _modifier(.foregroundStyle(primary._archivedStyle))
    }

    public func foregroundColor(_ color: Color?) -> some View {
        _modifier(.foregroundStyle(color?.archivedStyle ?? ArchiveStyle(.hierarchical(1))))
    }

    public func tint<S: ShapeStyle>(_ tint: S?) -> some View {
        _modifier(.tint(tint?._archivedStyle ?? ArchiveStyle(.tint)))
    }

    public func tint(_ tint: Color?) -> some View {
        _modifier(.tint(tint?.archivedStyle ?? ArchiveStyle(.tint)))
    }

    /// A style behind the view, filling its bounds.
    public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        _modifier(.background(style: style._archivedStyle, shape: nil, view: nil, alignment: "center"))
    }

    /// A style behind the view, in a shape: `.background(.blue, in: .rect(cornerRadius: 12))`.
    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> some View {
        _modifier(.background(style: style._archivedStyle, shape: shape._archivedShape, view: nil, alignment: "center"))
    }

    /// A view behind this one.
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        let view = content()
        return _modifier { .background(style: nil, shape: nil, view: $0.archive(view), alignment: alignment.name) }
    }

    @_disfavoredOverload
    public func background<Background: View>(_ background: Background, alignment: Alignment = .center) -> some View {
        _modifier { .background(style: nil, shape: nil, view: $0.archive(background), alignment: alignment.name) }
    }

    /// A view in front of this one.
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        let view = content()
        return _modifier { .overlay(view: $0.archive(view), alignment: alignment.name) }
    }

    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View {
        _modifier(.clipShape(shape._archivedShape))
    }

    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> some View {
        _modifier(.clipShape(ArchiveShape(type: "roundedRectangle", cornerRadius: finite(radius) ?? 0)))
    }

    public func opacity(_ opacity: Double) -> some View {
        _modifier(.opacity(opacity.isFinite ? min(1, max(0, opacity)) : 1))
    }
}
