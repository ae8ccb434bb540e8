import WidgetHostProtocol

/// A resolved colour, 0…255 per channel and 0…1 alpha.
struct RGBA: Sendable, Hashable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double

    init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xFF), Double((hex >> 8) & 0xFF), Double(hex & 0xFF), alpha)
    }

    func with(alpha factor: Double) -> RGBA { RGBA(red, green, blue, alpha * factor) }

    /// Relative luminance, 0…1.
    var luminance: Double { (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255 }

    var css: String {
        let a = min(1, max(0, alpha))
        if a >= 1 { return "rgb(\(Int(red.rounded())),\(Int(green.rounded())),\(Int(blue.rounded())))" }
        return "rgba(\(Int(red.rounded())),\(Int(green.rounded())),\(Int(blue.rounded())),\(CSSNumber.format(a)))"
    }
}

/// Colours as a device draws them: system colours in their light or dark variant, then the
/// rendering mode applied (accented: the accentable group in the accent colour and the rest
/// in white; vibrant: luminance as white's opacity). Archive strings are only ever looked up,
/// never copied into the page.
struct Palette: Sendable {
    var scheme: ViewEnvironment.ColorScheme
    var mode: ViewEnvironment.RenderingMode
    var accent: RGBA

    private var dark: Bool { scheme == .dark }

    /// The colour a system name stands for; grey for a name the host does not know.
    func system(_ name: String) -> RGBA {
        switch name {
        case "black": RGBA(hex: 0x000000)
        case "white": RGBA(hex: 0xFFFFFF)
        case "clear": RGBA(0, 0, 0, 0)
        case "gray": RGBA(hex: 0x8E8E93)
        case "red": RGBA(hex: dark ? 0xFF453A : 0xFF3B30)
        case "orange": RGBA(hex: dark ? 0xFF9F0A : 0xFF9500)
        case "yellow": RGBA(hex: dark ? 0xFFD60A : 0xFFCC00)
        case "green": RGBA(hex: dark ? 0x30D158 : 0x34C759)
        case "mint": RGBA(hex: dark ? 0x63E6E2 : 0x00C7BE)
        case "teal": RGBA(hex: dark ? 0x40CBE0 : 0x30B0C7)
        case "cyan": RGBA(hex: dark ? 0x64D2FF : 0x32ADE6)
        case "blue": RGBA(hex: dark ? 0x0A84FF : 0x007AFF)
        case "indigo": RGBA(hex: dark ? 0x5E5CE6 : 0x5856D6)
        case "purple": RGBA(hex: dark ? 0xBF5AF2 : 0xAF52DE)
        case "pink": RGBA(hex: dark ? 0xFF375F : 0xFF2D55)
        case "brown": RGBA(hex: dark ? 0xAC8E68 : 0xA2845E)
        case "primary": label(1)
        case "secondary": label(2)
        case "accentColor": accent
        default: RGBA(hex: 0x8E8E93)
        }
    }

    /// `.primary` … `.quinary`.
    func label(_ level: Int) -> RGBA {
        let opacities = [1.0, 0.6, 0.3, 0.18, 0.1]
        let opacity = opacities[min(4, max(0, level - 1))]
        if level <= 1 { return dark ? RGBA(hex: 0xFFFFFF) : RGBA(hex: 0x000000) }
        return dark ? RGBA(235, 235, 245, opacity) : RGBA(60, 60, 67, opacity)
    }

    /// `.fill` … `.fill.quinary`: the system fills.
    func fill(_ level: Int) -> RGBA {
        let light = [0.2, 0.16, 0.12, 0.08, 0.05]
        let darkOpacities = [0.36, 0.32, 0.24, 0.18, 0.1]
        let index = min(4, max(0, level - 1))
        return RGBA(120, 120, 128, dark ? darkOpacities[index] : light[index])
    }

    func color(_ color: ArchiveColor) -> RGBA {
        let base: RGBA =
            switch color.value {
            case .rgb(let red, let green, let blue): RGBA(unit(red) * 255, unit(green) * 255, unit(blue) * 255)
            case .system(let name): system(name)
            case .named(let name): name == "AccentColor" ? accent : RGBA(hex: 0x8E8E93)
            }
        return base.with(alpha: unit(color.opacity))
    }

    /// A style as one colour (text, strokes): a gradient gives its first stop.
    func resolve(_ style: ArchiveStyle, accentable: Bool) -> RGBA {
        let base: RGBA =
            switch style.kind {
            case .color(let color): self.color(color)
            case .hierarchical(let level): label(level)
            case .fill(let level): fill(level)
            case .tint: accent
            case .linearGradient(let stops, _, _): stops.first.map { color($0.color) } ?? label(1)
            case .unknown: label(1)
            }
        return rendered(base.with(alpha: unit(style.opacity)), accentable: accentable)
    }

    /// A style as a CSS background value: gradients stay gradients in full colour.
    func background(_ style: ArchiveStyle, accentable: Bool) -> String {
        guard case .linearGradient(let stops, let start, let end) = style.kind, stops.count > 1 else {
            return resolve(style, accentable: accentable).css
        }
        let angle = Self.cssAngle(from: start, to: end)
        let list = stops.map { stop in
            rendered(color(stop.color).with(alpha: unit(style.opacity)), accentable: accentable).css + " "
                + CSSNumber.format(unit(stop.location) * 100) + "%"
        }.joined(separator: ",")
        return "linear-gradient(\(angle)deg,\(list))"
    }

    /// The rendering mode applied to a full-colour value.
    func rendered(_ color: RGBA, accentable: Bool) -> RGBA {
        switch mode {
        case .fullColor:
            return color
        case .accented:
            let tint = accentable ? accent : RGBA(hex: 0xFFFFFF)
            return RGBA(tint.red, tint.green, tint.blue, color.alpha)
        case .vibrant:
            return RGBA(255, 255, 255, color.alpha * (0.4 + 0.6 * color.luminance))
        }
    }

    private func unit(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }

    /// CSS gradient angles: 0deg points up, 90deg right; unit points have y down.
    static func cssAngle(from start: ArchiveUnitPoint, to end: ArchiveUnitPoint) -> String {
        let dx = end.x - start.x
        let dy = end.y - start.y
        guard dx != 0 || dy != 0 else { return "180" }
        var degrees = atan2(dx, -dy) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        return CSSNumber.format(degrees)
    }
}

import Foundation
