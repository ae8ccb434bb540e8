import Foundation
import WidgetHostProtocol

/// One Live Activity as the host draws it: who it is, where it stands, its views.
public struct LockScreenActivity: Sendable, Hashable {
    public var id: String
    public var app: String
    public var attributesType: String
    public var state: ActivityStateName
    public var views: ActivityViews?

    public init(id: String, app: String, attributesType: String, state: ActivityStateName, views: ActivityViews?) {
        self.id = id
        self.app = app
        self.attributesType = attributesType
        self.state = state
        self.views = views
    }

    /// On the Lock Screen: ongoing, or ended and not yet dismissed.
    public var isOnLockScreen: Bool { state != .dismissed }
    /// In the Dynamic Island: ongoing only (an ended activity leaves it at once).
    public var isInDynamicIsland: Bool { state.isOngoing }
}

/// The Dynamic Island drawn around activities' presentations (HIG sizes: 230 pt wide around
/// the compact and minimal views, 371 × 160 expanded, 44 pt corners; the bare island 125.33 pt,
/// what the compact views leave of 230).
public enum DynamicIslandWriter {
    public static let bareWidth = ActivityPresentation.islandCompactWidth - 2 * ActivityPresentation.compactLeading.displaySize.width
    public static let height = ActivityPresentation.compactLeading.displaySize.height

    /// The island at the top of the Lock Screen: bare with no ongoing activity; the first in its
    /// compact presentation when it is alone; with two or more, the first minimal and attached,
    /// the second minimal in its own circle (Apple; which two is ours: the first by id).
    public static func top(_ activities: [LockScreenActivity], options: RenderOptions) -> (html: String, notes: [String]) {
        let ongoing = activities.filter(\.isInDynamicIsland)
        switch ongoing.count {
        case 0:
            return ("<div class=\"wh-island-row\">\(pill(width: bareWidth, content: ""))</div>", [])
        case 1:
            return compact(ongoing[0], options: options)
        default:
            let (first, firstNotes) = view(ongoing[0], .minimal, options)
            let (second, secondNotes) = view(ongoing[1], .minimal, options)
            var html = "<div class=\"wh-island-row\">"
            html += pill(
                width: bareWidth + ActivityPresentation.minimal.displaySize.width,
                content: "<div class=\"wh-island-gap\"></div>" + first, ongoing[0], options)
            html += "<div class=\"wh-island wh-island-detached\"\(keyline(ongoing[1], options))>\(second)</div></div>"
            return (html, firstNotes + secondNotes)
        }
    }

    /// Compact: leading, the camera's gap, trailing.
    public static func compact(_ activity: LockScreenActivity, options: RenderOptions) -> (html: String, notes: [String]) {
        let (leading, leadingNotes) = view(activity, .compactLeading, options)
        let (trailing, trailingNotes) = view(activity, .compactTrailing, options)
        let content = leading + "<div class=\"wh-island-gap\"></div>" + trailing
        return (
            "<div class=\"wh-island-row\">\(pill(width: ActivityPresentation.islandCompactWidth, content: content, activity, options))</div>",
            leadingNotes + trailingNotes
        )
    }

    /// Minimal, attached to the bare island.
    public static func minimal(_ activity: LockScreenActivity, options: RenderOptions) -> (html: String, notes: [String]) {
        let (minimal, notes) = view(activity, .minimal, options)
        let width = bareWidth + ActivityPresentation.minimal.displaySize.width
        return (
            "<div class=\"wh-island-row\">\(pill(width: width, content: "<div class=\"wh-island-gap\"></div>" + minimal, activity, options))</div>",
            notes
        )
    }

    /// Expanded: leading, center and trailing in a row, the bottom under them.
    public static func expanded(_ activity: LockScreenActivity, options: RenderOptions) -> (html: String, notes: [String]) {
        var notes: [String] = []
        var row = ""
        for presentation in [ActivityPresentation.expandedLeading, .expandedCenter, .expandedTrailing] {
            let (html, more) = view(activity, presentation, options)
            row += html
            notes += more
        }
        let (bottom, bottomNotes) = view(activity, .expandedBottom, options)
        notes += bottomNotes
        var html = "<div class=\"wh-island wh-island-expanded\" style=\"width:\(CSSNumber.px(ActivityPresentation.islandExpandedWidth));"
        html += "height:\(CSSNumber.px(ActivityPresentation.lockScreen.displaySize.height));\(keylineStyle(activity, options))\">"
        html += "<div class=\"wh-island-top\">\(row)</div>\(bottom)</div>"
        return (html, notes)
    }

    private static func pill(
        width: Double, content: String, _ activity: LockScreenActivity? = nil, _ options: RenderOptions? = nil
    ) -> String {
        var style = "width:\(CSSNumber.px(width));height:\(CSSNumber.px(height));"
        if let activity, let options { style += keylineStyle(activity, options) }
        return "<div class=\"wh-island\" style=\"\(style)\">\(content)</div>"
    }

    /// The activity's `keylineTint` as a thin line around the island (Apple: "a subtle tint
    /// color to the surrounding border"; 1 pt: ours); empty without one.
    static func keylineStyle(_ activity: LockScreenActivity, _ options: RenderOptions) -> String {
        guard let tint = activity.views?.result.keylineTint else { return "" }
        let palette = Palette(scheme: .dark, mode: .fullColor, accent: RGBA(hex: options.accent))
        return "box-shadow:0 0 0 1px \(palette.color(tint).css);"
    }

    private static func keyline(_ activity: LockScreenActivity, _ options: RenderOptions) -> String {
        let style = keylineStyle(activity, options)
        return style.isEmpty ? "" : " style=\"\(style)\""
    }

    private static func view(
        _ activity: LockScreenActivity, _ presentation: ActivityPresentation, _ options: RenderOptions
    ) -> (String, [String]) {
        guard let views = activity.views else {
            let size = presentation.displaySize
            return (
                "<div class=\"wh-island-empty\" style=\"width:\(CSSNumber.px(size.width));height:\(CSSNumber.px(size.height))\"></div>",
                []
            )
        }
        let drawn = ActivityViewRenderer.render(
            views.result.view(for: presentation), presentation: presentation, activityID: activity.id,
            defaultURL: views.result.widgetURL, options: options)
        return (drawn.html, drawn.notes.map { "\(activity.id) \(presentation.title): \($0)" })
    }

    /// How the island and its parts lay out (once per page).
    public static let css = """
.wh-island-row{display:flex;justify-content:center;align-items:center;gap:8px}
.wh-island{display:flex;flex-direction:row;align-items:center;justify-content:space-between;background:#000;border-radius:44px;overflow:hidden;flex:none}
.wh-island-detached{width:36.67px;height:36.67px;border-radius:50%}
.wh-island-gap{flex:1 1 auto}
.wh-island-empty{flex:none}
.wh-island-expanded{flex-direction:column;justify-content:flex-start;align-items:stretch}
.wh-island-top{display:flex;flex-direction:row}
.wh-island-view{background:transparent;color:#fff}
"""
}
