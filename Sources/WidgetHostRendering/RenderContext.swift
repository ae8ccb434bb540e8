import Foundation
import WidgetHostProtocol

/// What a node inherits from the nodes around it while it is written.
struct RenderContext {
    var palette: Palette
    /// The axis of the parent's layout, for the node's flex item style.
    var axis: Axis?
    /// In accented mode, whether this view is in the accent group (`widgetAccentable`).
    var accentable = false
    /// Drawn as placeholder shapes.
    var redacted = false
    /// The font size text inherits here (for symbols and estimates).
    var fontSize: Double = 17
    /// The tint (`.tint(_:)`): gauges and progress views fill with it.
    var tint: ArchiveStyle?
    /// The foreground style set around this view (re-resolved when it joins the accent group).
    var foreground: ArchiveStyle?
    /// How a resizable image fills its frame.
    var contentMode = "fit"
    /// Roughly the space offered here, for `ViewThatFits`.
    var available: (width: Double, height: Double)
    var depth = 0

    /// CSS for this node as an item of its parent's layout.
    func itemStyle(_ flexibility: Flexibility) -> String {
        switch axis {
        case .vertical, nil:
            var style = flexibility.vertical ? "flex:1 1 0;min-height:0;" : "flex:0 0 auto;"
            if flexibility.horizontal { style += "align-self:stretch;" }
            return style
        case .horizontal:
            var style = flexibility.horizontal ? "flex:1 1 0;min-width:0;" : "flex:0 1 auto;min-width:0;"
            if flexibility.vertical { style += "align-self:stretch;" }
            return style
        case .layered:
            var style = "grid-area:1/1;"
            if flexibility.horizontal { style += "justify-self:stretch;" }
            if flexibility.vertical { style += "align-self:stretch;" }
            return style
        }
    }

    func color(_ style: ArchiveStyle) -> String { palette.resolve(style, accentable: accentable).css }

    func background(_ style: ArchiveStyle) -> String { palette.background(style, accentable: accentable) }
}

/// CSS values for the archive's alignment names; anything else is centre.
enum AlignmentCSS {
    /// (justify-content in a column: vertical, align-items in a column: horizontal).
    static func column(_ name: String) -> (vertical: String, horizontal: String) {
        (vertical(name), horizontal(name))
    }

    static func horizontal(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("leading") { return "flex-start" }
        if lower.hasSuffix("trailing") { return "flex-end" }
        return "center"
    }

    static func vertical(_ name: String) -> String {
        if name.hasPrefix("top") { return "flex-start" }
        if name.hasPrefix("bottom") { return "flex-end" }
        return "center"
    }

    /// For a stack's cross axis: `leading` in a VStack, `top` or a baseline in an HStack.
    static func crossAxis(_ name: String) -> String {
        switch name {
        case "leading", "top": "flex-start"
        case "trailing", "bottom": "flex-end"
        case "firstTextBaseline": "baseline"
        case "lastTextBaseline": "last baseline"
        default: "center"
        }
    }

    static func gridSelf(_ name: String) -> String {
        let horizontal = horizontal(name) == "flex-start" ? "start" : horizontal(name) == "flex-end" ? "end" : "center"
        let vertical = vertical(name) == "flex-start" ? "start" : vertical(name) == "flex-end" ? "end" : "center"
        return "justify-self:\(horizontal);align-self:\(vertical);"
    }

    static func textAlign(_ name: String) -> String {
        switch name {
        case "center": "center"
        case "trailing": "right"
        default: "left"
        }
    }
}

enum ShapeCSS {
    /// A border-radius for a shape; nil for a plain rectangle.
    static func radius(_ shape: ArchiveShape) -> String? {
        switch shape.type {
        case "circle", "ellipse": "50%"
        case "capsule": "9999px"
        case "roundedRectangle": CSSNumber.px(max(0, min(shape.cornerRadius ?? 0, 1000)))
        case "containerRelative": "6px"
        default: nil
        }
    }
}
