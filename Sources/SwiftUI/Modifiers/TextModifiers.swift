import WidgetHostProtocol

extension View {
    /// The font of every text inside.
    public func font(_ font: Font?) -> some View { _modifier(.font(font?.archived)) }

    public func fontWeight(_ weight: Font.Weight?) -> some View { _modifier(.fontWeight(weight?.name)) }

    public func bold(_ isActive: Bool = true) -> some View { _modifier(.fontWeight(isActive ? "bold" : nil)) }

    /// At most `number` lines; nil: as many as fit.
    public func lineLimit(_ number: Int?) -> some View { _modifier(.lineLimit(number)) }

    /// How far text may shrink to fit before it is truncated.
    public func minimumScaleFactor(_ factor: CGFloat) -> some View {
        _modifier(.minimumScaleFactor(min(1, max(0.01, finite(factor) ?? 1))))
    }

    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View {
        _modifier(.multilineTextAlignment(alignment.name))
    }

    /// Digits of equal width in every text inside, so that counters do not jiggle.
    public func monospacedDigit() -> some View { _modifier(.font(ArchiveFont(monospacedDigit: true))) }
}
