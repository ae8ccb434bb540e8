import WidgetHostProtocol

/// Fonts as CSS: iOS's text style sizes at the default text size, weights, designs.
enum Typography {
    static func size(of style: String) -> Double {
        switch style {
        case "largeTitle": 34
        case "title": 28
        case "title2": 22
        case "title3": 20
        case "headline", "body": 17
        case "callout": 16
        case "subheadline": 15
        case "footnote": 13
        case "caption": 12
        case "caption2": 11
        default: 17
        }
    }

    static func weight(_ name: String?) -> Int? {
        switch name {
        case "ultraLight": 100
        case "thin": 200
        case "light": 300
        case "regular": 400
        case "medium": 500
        case "semibold": 600
        case "bold": 700
        case "heavy": 800
        case "black": 900
        default: nil
        }
    }

    static let defaultFamily = #"system-ui,-apple-system,'SF Pro Text','Inter','Helvetica Neue','DejaVu Sans',Arial,sans-serif"#

    static func family(_ design: String?) -> String? {
        switch design {
        case "rounded": #"ui-rounded,'SF Pro Rounded','Nunito','Varela Round',system-ui,sans-serif"#
        case "serif": #"ui-serif,'New York',Georgia,'DejaVu Serif',serif"#
        case "monospaced": #"ui-monospace,'SF Mono',Menlo,'DejaVu Sans Mono',monospace"#
        default: nil
        }
    }

    /// CSS declarations for a font (without the trailing semicolon of the last one).
    static func css(_ font: ArchiveFont) -> String {
        var parts: [String] = []
        if let size = font.size, size.isFinite, size > 0 {
            parts.append("font-size:" + CSSNumber.px(min(size, 400)))
        } else if let style = font.style {
            parts.append("font-size:" + CSSNumber.px(size(of: style)))
        }
        if let weight = weight(font.weight) {
            parts.append("font-weight:\(weight)")
        } else if font.style == "headline" {
            parts.append("font-weight:600")
        } else if font.style != nil || font.size != nil {
            parts.append("font-weight:400")
        }
        if let family = family(font.design) { parts.append("font-family:" + family) }
        if font.italic == true { parts.append("font-style:italic") }
        if font.monospacedDigit == true { parts.append("font-variant-numeric:tabular-nums") }
        return parts.joined(separator: ";")
    }

    /// The point size a font gives (for layout estimates and symbol sizes).
    static func pointSize(_ font: ArchiveFont?, inherited: Double) -> Double {
        guard let font else { return inherited }
        if let size = font.size, size.isFinite, size > 0 { return min(size, 400) }
        if let style = font.style { return size(of: style) }
        return inherited
    }
}
