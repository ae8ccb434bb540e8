import Foundation
import WidgetHostProtocol

/// Draws a widget's entry as an HTML fragment at its family's size: deterministic (the same
/// archive and options give the same bytes), escaped (nothing an extension sends becomes
/// markup), and self-contained (no remote resources; symbols inline, images as `data:` URLs).
/// A page shows many widgets by concatenating fragments under one `Stylesheet.css` and one
/// `LiveScript.source`; a fragment can replace its predecessor in place.
public enum WidgetRenderer {
    /// One widget: its view archive, or — for an entry with only `content` (protocol version
    /// 1, and the Python extensions) — that content, shown as JSON.
    public static func render(_ archive: ViewArchive?, content: JSONValue = .null, options: RenderOptions) -> RenderedWidget {
        let family = options.family ?? archive?.family ?? .systemSmall
        let size = options.device.size(of: family)
        let mode = options.mode ?? (family.isAccessory ? .vibrant : .fullColor)
        let scheme: ViewEnvironment.ColorScheme = mode == .vibrant ? .dark : options.colorScheme
        let palette = Palette(scheme: scheme, mode: mode, accent: RGBA(hex: options.accent))
        var writer = NodeWriter(options: options)

        var shown = archive
        var redacted = options.redacted
        if let rejected = archive?.rejected {
            writer.note("the view was refused (\(rejected)); the placeholder is shown")
            shown = options.placeholder ?? ViewArchive(family: family, root: ViewNode(.unknown(type: "(refused view)")))
            redacted = true
        }

        let margin = family.contentMargin
        var classes = "wh-widget wh-clock wh-\(family.rawValue) wh-\(scheme.rawValue) wh-\(mode.rawValue)"
        if family.isAccessory { classes += " wh-accessory" }
        if options.interaction != nil { classes += " wh-intent-running" }
        var style = "width:\(CSSNumber.px(size.width));height:\(CSSNumber.px(size.height));"
        style += "border-radius:\(CSSNumber.px(family.cornerRadius));"
        if !family.isAccessory { style += "background:\(base(palette, mode: mode));color:\(palette.label(1).css);" }

        var html = "<div class=\"\(classes)\" data-wh-family=\"\(family.rawValue)\" data-wh-at=\"\(NodeWriter.seconds(options.at))\""
        if let id = options.widgetID { html += " data-wh-id=\"\(HTMLText.attribute(id))\"" }
        if let url = shown.flatMap({ widgetURL(in: $0.root) }) {
            html += " data-wh-url=\"\(HTMLText.attribute(url))\""
        }
        html += " style=\"\(style)\">"

        guard let shown else {
            html += "<pre class=\"wh-content-json\">\(HTMLText.escape(contentText(content)))</pre></div>"
            return RenderedWidget(html: html, family: family, width: size.width, height: size.height, notes: [])
        }

        let showsBackground = !family.isAccessory && mode == .fullColor && shown.environment.showsWidgetContainerBackground
        if showsBackground, let background = containerBackground(in: shown.root) {
            html += "<div class=\"wh-container-background\" style=\""
            if let backgroundStyle = background.style { html += "background:\(palette.background(backgroundStyle, accentable: false))" }
            html += "\">"
            if let view = background.view {
                var context = RenderContext(palette: palette, available: (size.width, size.height))
                context.axis = .vertical
                writer.out = ""
                writer.write(view, context)
                html += writer.out
            }
            html += "</div>"
        }

        var context = RenderContext(
            palette: palette, available: (size.width - 2 * margin, size.height - 2 * margin))
        context.axis = .vertical
        context.redacted = redacted
        writer.out = ""
        writer.write(shown.root, context)
        html += "<div class=\"wh-content\(family == .accessoryInline ? " wh-inline" : "")\(redacted ? " wh-placeholder" : "")\""
        html += " style=\"padding:\(CSSNumber.px(margin))\">" + writer.out + "</div></div>"
        return RenderedWidget(html: html, family: family, width: size.width, height: size.height, notes: writer.notes)
    }

    /// The widget's own background under the container background.
    private static func base(_ palette: Palette, mode: ViewEnvironment.RenderingMode) -> String {
        if mode == .accented {
            let accent = palette.accent
            return RGBA(accent.red * 0.3, accent.green * 0.3, accent.blue * 0.3).css
        }
        return palette.scheme == .dark ? RGBA(hex: 0x1C1C1E).css : RGBA(hex: 0xFFFFFF).css
    }

    /// The first `containerBackground` in the tree, outermost first.
    static func containerBackground(in node: ViewNode) -> (style: ArchiveStyle?, view: ViewNode?)? {
        for modifier in node.modifiers.reversed() {
            if case .containerBackground(let style, let view, _) = modifier { return (style, view) }
        }
        for child in node.childNodes {
            if let found = containerBackground(in: child) { return found }
        }
        return nil
    }

    /// The first `widgetURL` in the tree, outermost first (as on a device, one per widget).
    static func widgetURL(in node: ViewNode) -> String? {
        for modifier in node.modifiers.reversed() {
            if case .widgetURL(let url) = modifier { return url }
        }
        for child in node.childNodes {
            if let found = widgetURL(in: child) { return found }
        }
        return nil
    }

    private static func contentText(_ content: JSONValue) -> String {
        guard let data = try? WireCoding.encode(content) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
