import WidgetHostProtocol

/// A font: a text style that scales with the user's text size (`.headline`), or a fixed
/// size (`.system(size: 34, weight: .bold, design: .rounded)`), with traits.
public struct Font: Sendable, Hashable {
    var archived: ArchiveFont

    init(_ archived: ArchiveFont) { self.archived = archived }

    public enum TextStyle: String, Sendable, Hashable, CaseIterable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
    }

    public enum Design: String, Sendable, Hashable {
        case `default`, serif, rounded, monospaced
    }

    public struct Weight: Sendable, Hashable {
        let name: String
        public static let ultraLight = Weight(name: "ultraLight")
        public static let thin = Weight(name: "thin")
        public static let light = Weight(name: "light")
        public static let regular = Weight(name: "regular")
        public static let medium = Weight(name: "medium")
        public static let semibold = Weight(name: "semibold")
        public static let bold = Weight(name: "bold")
        public static let heavy = Weight(name: "heavy")
        public static let black = Weight(name: "black")
    }

    public static let largeTitle = Font(ArchiveFont(style: "largeTitle"))
    public static let title = Font(ArchiveFont(style: "title"))
    public static let title2 = Font(ArchiveFont(style: "title2"))
    public static let title3 = Font(ArchiveFont(style: "title3"))
    public static let headline = Font(ArchiveFont(style: "headline"))
    public static let subheadline = Font(ArchiveFont(style: "subheadline"))
    public static let body = Font(ArchiveFont(style: "body"))
    public static let callout = Font(ArchiveFont(style: "callout"))
    public static let footnote = Font(ArchiveFont(style: "footnote"))
    public static let caption = Font(ArchiveFont(style: "caption"))
    public static let caption2 = Font(ArchiveFont(style: "caption2"))

    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(ArchiveFont(size: finite(size) ?? 17, weight: weight?.name, design: design?.rawValue))
    }

    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        Font(ArchiveFont(style: style.rawValue, weight: weight?.name, design: design?.rawValue))
    }

    /// A custom font by name: drawn in the system font here (the host has no font files).
    public static func custom(_ name: String, size: CGFloat) -> Font { .system(size: size) }

    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: TextStyle) -> Font { .system(size: size) }

    private func with(_ change: (inout ArchiveFont) -> Void) -> Font {
        var copy = archived
        change(&copy)
        return Font(copy)
    }

    public func weight(_ weight: Weight) -> Font { with { $0.weight = weight.name } }
    public func bold() -> Font { weight(.bold) }
    public func italic() -> Font { with { $0.italic = true } }
    public func monospacedDigit() -> Font { with { $0.monospacedDigit = true } }
    public func monospaced() -> Font { with { $0.design = Design.monospaced.rawValue } }
}
