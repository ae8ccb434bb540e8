import Foundation
import WidgetHostProtocol

/// Draws one presentation of a Live Activity (its Lock Screen view, or one Dynamic Island
/// presentation) as an HTML fragment at the presentation's size (`ActivityPresentation.displaySize`,
/// docs/rules.md "Live Activity views"): deterministic, escaped and self-contained, as
/// `WidgetRenderer`'s fragments are, and counting timers live under the page's `LiveScript`.
///
/// The Lock Screen view sits on a banner in the page's colour scheme; the Dynamic Island's
/// presentations are drawn dark, in full colour, with no background of their own (the island
/// around them is black).
public enum ActivityViewRenderer {
    public static func render(
        _ archive: ViewArchive?, presentation: ActivityPresentation, activityID: String, options: RenderOptions
    ) -> RenderedActivityView {
        let size = presentation.displaySize
        let scheme: ViewEnvironment.ColorScheme = presentation.isDynamicIsland ? .dark : options.colorScheme
        let palette = Palette(scheme: scheme, mode: .fullColor, accent: RGBA(hex: options.accent))
        var writer = NodeWriter(options: options)

        var classes = "wh-widget wh-clock wh-activity-view wh-\(scheme.rawValue)"
        classes += presentation.isDynamicIsland ? " wh-island-view" : " wh-lock-activity"
        var style = "width:\(CSSNumber.px(size.width));height:\(CSSNumber.px(size.height));color:\(palette.label(1).css);"
        if !presentation.isDynamicIsland {
            style += "border-radius:\(CSSNumber.px(lockScreenCornerRadius));"
            style += "background:\(scheme == .dark ? "rgba(28,28,30,.82)" : "rgba(245,245,247,.86)");"
        }
        var html = "<div class=\"\(classes)\" data-wh-presentation=\"\(presentation.rawValue)\""
        html += " data-wh-activity=\"\(HTMLText.attribute(activityID))\" data-wh-at=\"\(NodeWriter.seconds(options.at))\""
        html += " style=\"\(style)\">"
        guard let archive else {
            // An expanded region the extension left empty: the island shows nothing there.
            return RenderedActivityView(
                html: html + "</div>", presentation: presentation, width: size.width, height: size.height, notes: [])
        }
        let margin = presentation.contentMargin
        var context = RenderContext(palette: palette, available: (size.width - 2 * margin, size.height - 2 * margin))
        context.axis = .vertical
        context.fontSize = presentation.isDynamicIsland ? 15 : 17
        writer.write(archive.root, context)
        html += "<div class=\"wh-content\" style=\"padding:\(CSSNumber.px(margin))\">\(writer.out)</div></div>"
        return RenderedActivityView(
            html: html, presentation: presentation, width: size.width, height: size.height, notes: writer.notes)
    }

    /// The Lock Screen banner's corner radius (ours: a notification's).
    public static let lockScreenCornerRadius = 22.0
}

/// One presentation drawn: an HTML fragment, its size in points, and what could not be shown.
public struct RenderedActivityView: Sendable, Hashable {
    public var html: String
    public var presentation: ActivityPresentation
    public var width: Double
    public var height: Double
    public var notes: [String]
}
