import Foundation
import WidgetHostProtocol

/// Draws one presentation of a Live Activity (its Lock Screen view, or one Dynamic Island
/// presentation) as an HTML fragment at the presentation's size (`ActivityPresentation.displaySize`,
/// docs/rules.md "Live Activity views"): deterministic, escaped and self-contained, as
/// `WidgetRenderer`'s fragments are, and counting timers live under the page's `LiveScript`.
///
/// The Lock Screen view sits on a banner in the page's colour scheme, tinted by the view's
/// `activityBackgroundTint` if it has one; the Dynamic Island's presentations are drawn dark,
/// in full colour, with no background of their own (the island around them is black). Each
/// carries the URL a tap opens (`data-wh-url`): the view's own `widgetURL`, else `defaultURL`
/// (the island's `widgetURL`, which Apple makes the default for every view of the activity).
public enum ActivityViewRenderer {
    public static func render(
        _ archive: ViewArchive?, presentation: ActivityPresentation, activityID: String, defaultURL: String? = nil,
        options: RenderOptions
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
            if let tint = archive.flatMap({ backgroundTint(in: $0.root) }) {
                style += "background:\(palette.color(tint).css);"
            } else {
                style += "background:\(scheme == .dark ? "rgba(28,28,30,.82)" : "rgba(245,245,247,.86)");"
            }
        }
        var html = "<div class=\"\(classes)\" data-wh-presentation=\"\(presentation.rawValue)\""
        html += " data-wh-activity=\"\(HTMLText.attribute(activityID))\" data-wh-at=\"\(NodeWriter.seconds(options.at))\""
        if let url = archive.flatMap({ WidgetRenderer.widgetURL(in: $0.root) }) ?? defaultURL {
            html += " data-wh-url=\"\(HTMLText.attribute(url))\""
        }
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

    /// The first `activityBackgroundTint` in the tree, outermost first; nil when there is none
    /// or it asks for the system's background.
    static func backgroundTint(in node: ViewNode) -> ArchiveColor? {
        firstColor(in: node) { if case .activityBackgroundTint(let color) = $0 { color } else { nil } }
    }

    /// The first `activitySystemActionForegroundColor` in the tree, outermost first.
    static func systemActionColor(in node: ViewNode) -> ArchiveColor? {
        firstColor(in: node) { if case .activitySystemActionForegroundColor(let color) = $0 { color } else { nil } }
    }

    /// The outermost modifier `match` recognises (`.some`), and its colour (nil: the system's).
    private static func firstColor(in root: ViewNode, _ match: (ViewModifierNode) -> ArchiveColor??) -> ArchiveColor? {
        var queue = [root]
        var index = 0
        while index < queue.count {
            let node = queue[index]
            index += 1
            for modifier in node.modifiers.reversed() {
                if let found = match(modifier) { return found }
            }
            queue.append(contentsOf: node.childNodes)
        }
        return nil
    }
}

/// One presentation drawn: an HTML fragment, its size in points, and what could not be shown.
public struct RenderedActivityView: Sendable, Hashable {
    public var html: String
    public var presentation: ActivityPresentation
    public var width: Double
    public var height: Double
    public var notes: [String]
}
