import Foundation
import WidgetHostProtocol

/// The Lock Screen as the host draws it: a 393 × 852 pt iPhone screen with the Dynamic Island
/// at the top, the time, the accessory widgets the user added, and the Live Activities' Lock
/// Screen views (ongoing ones, then ended ones until they are dismissed); beside it, each
/// ongoing activity's Dynamic Island in every presentation (compact, minimal, expanded).
public enum LockScreen {
    /// The screen's size in points (the reference iPhone; it grows taller when the activities need it).
    public static let screenWidth = 393.0
    public static let screenHeight = 852.0
    /// Where the activities start, and the gap between them (ours).
    static let activitiesTop = 330.0
    static let gap = 11.0
    /// The column of Dynamic Islands beside the screen.
    static let islandsWidth = 420.0
    static let islandBlockHeight = 330.0
    static let padding = 24.0

    /// The screen: island, time, widgets, activities. `widgets` are accessory widgets already drawn.
    public static func screen(
        activities: [LockScreenActivity], widgets: [RenderedWidget], options: RenderOptions
    ) -> (html: String, height: Double, notes: [String]) {
        var notes: [String] = []
        let shown = activities.filter(\.isOnLockScreen)
        let height = screenHeight(activityCount: shown.count)
        var html = "<div class=\"wh-lockscreen-screen\" style=\"width:\(CSSNumber.px(screenWidth));height:\(CSSNumber.px(height))\">"
        let (island, islandNotes) = DynamicIslandWriter.top(activities, options: options)
        notes += islandNotes
        html += "<div class=\"wh-lockscreen-island\">\(island)</div>"

        let inline = widgets.filter { $0.family == .accessoryInline }
        let others = widgets.filter { $0.family != .accessoryInline }
        html += "<div class=\"wh-lockscreen-date\">"
        html += inline.first.map(\.html) ?? HTMLText.escape(dateLine(options))
        html += "</div><div class=\"wh-lockscreen-time\">\(HTMLText.escape(timeLine(options)))</div>"
        html += "<div class=\"wh-lockscreen-widgets\">\(others.map(\.html).joined())</div>"
        for widget in widgets { notes += widget.notes }

        html += "<div class=\"wh-lockscreen-activities\" style=\"top:\(CSSNumber.px(activitiesTop))\">"
        for activity in shown {
            guard let views = activity.views else {
                html += "<div class=\"wh-activity-missing\" data-wh-activity=\"\(HTMLText.attribute(activity.id))\">"
                html += "\(HTMLText.escape(activity.id)): no views yet (see widgethost activity \(HTMLText.escape(activity.id)))</div>"
                continue
            }
            let drawn = ActivityViewRenderer.render(
                views.result.lockScreen, presentation: .lockScreen, activityID: activity.id,
                defaultURL: views.result.widgetURL, options: options)
            html += activity.state.isOngoing ? drawn.html : withSystemAction(drawn.html, views.result.lockScreen, options)
            notes += drawn.notes.map { "\(activity.id) Lock Screen: \($0)" }
        }
        html += "</div></div>"
        return (html, height, notes)
    }

    /// An ended activity's banner with the system's action that clears it, in the view's
    /// `activitySystemActionForegroundColor` (Apple: "the auxiliary action button that the
    /// system shows next to a Live Activity on the Lock Screen"; a device reveals it with a
    /// swipe; drawn on ended activities only, at the banner's top trailing corner: ours).
    static func withSystemAction(_ banner: String, _ view: ViewArchive, _ options: RenderOptions) -> String {
        let palette = Palette(scheme: options.colorScheme, mode: .fullColor, accent: RGBA(hex: options.accent))
        let color = ActivityViewRenderer.systemActionColor(in: view.root).map(palette.color) ?? palette.label(1)
        let button = "<div class=\"wh-activity-action\" style=\"color:\(color.css)\">Clear</div>"
        return "<div class=\"wh-activity-ended\">\(banner)\(button)</div>"
    }

    /// One activity's Dynamic Island in each presentation, captioned.
    public static func islands(_ activity: LockScreenActivity, options: RenderOptions) -> (html: String, notes: [String]) {
        var html = "<section class=\"wh-islands\" data-wh-activity=\"\(HTMLText.attribute(activity.id))\">"
        html += "<div class=\"wh-islands-title\">"
        html += "\(HTMLText.escape("\(activity.id) · \(activity.attributesType) · \(activity.state.rawValue)"))</div>"
        var notes: [String] = []
        for (caption, drawn) in [
            ("compact", DynamicIslandWriter.compact(activity, options: options)),
            ("minimal", DynamicIslandWriter.minimal(activity, options: options)),
            ("expanded", DynamicIslandWriter.expanded(activity, options: options)),
        ] {
            html += "<figure class=\"wh-island-figure\" data-wh-island=\"\(caption)\">\(drawn.html)"
            html += "<figcaption>\(caption)</figcaption></figure>"
            notes += drawn.notes
        }
        if activity.views == nil { html += "<p class=\"wh-note\">no views yet</p>" }
        return (html + "</section>", notes)
    }

    /// A whole page: the screen, and the islands of every activity in the Dynamic Island.
    public static func page(
        activities: [LockScreenActivity], widgets: [RenderedWidget], options: RenderOptions, title: String
    ) -> (html: String, width: Double, height: Double, notes: [String]) {
        let (screen, screenHeight, screenNotes) = self.screen(activities: activities, widgets: widgets, options: options)
        var notes = screenNotes
        var column = "<div class=\"wh-islands-column\" style=\"width:\(CSSNumber.px(islandsWidth))\"><h2>Dynamic Island</h2>"
        let ongoing = activities.filter(\.isInDynamicIsland)
        if ongoing.isEmpty { column += "<p>No ongoing Live Activity.</p>" }
        for activity in ongoing {
            let (html, more) = islands(activity, options: options)
            column += html
            notes += more
        }
        column += "</div>"
        let height = max(screenHeight, 40 + Double(ongoing.count) * islandBlockHeight) + 2 * padding
        let width = screenWidth + islandsWidth + 3 * padding
        let body = "<main class=\"wh-lockscreen-page\">\(screen)\(column)</main>"
        let pageCSS = "html,body{margin:0;background:#e9e9ee;color:#1c1c1e;font:14px system-ui,sans-serif}"
            + ".wh-lockscreen-page{display:flex;gap:\(CSSNumber.px(padding));padding:\(CSSNumber.px(padding));align-items:flex-start}"
        return (HTMLPage.document(title: title, extraCSS: pageCSS + css, body: body), width, height, notes)
    }

    /// The screen's height: 852 pt, or more when the activities need it.
    static func screenHeight(activityCount: Int) -> Double {
        let needed = activitiesTop + Double(activityCount) * (ActivityPresentation.lockScreen.displaySize.height + gap) + 40
        return max(screenHeight, needed)
    }

    static func timeLine(_ options: RenderOptions) -> String {
        formatted(options, "H:mm")
    }

    static func dateLine(_ options: RenderOptions) -> String {
        formatted(options, "EEEE d MMMM")
    }

    private static func formatted(_ options: RenderOptions, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = options.timeZone
        formatter.dateFormat = format
        return formatter.string(from: options.at)
    }

    /// The Lock Screen's and the islands' layout (once per page, after `Stylesheet.css`).
    public static let css = DynamicIslandWriter.css + """
.wh-lockscreen-screen{position:relative;flex:none;overflow:hidden;border-radius:48px;background:linear-gradient(160deg,#1d3557 0%,#2a4d6e 45%,#5a3d6b 100%);color:#fff;font-family:\(Typography.defaultFamily)}
.wh-lockscreen-island{position:absolute;top:11px;left:0;right:0}
.wh-lockscreen-date{position:absolute;top:70px;left:0;right:0;display:flex;justify-content:center;font-size:19px;font-weight:600;opacity:.9}
.wh-lockscreen-time{position:absolute;top:92px;left:0;right:0;text-align:center;font-size:92px;font-weight:700;line-height:1.1;letter-spacing:-2px}
.wh-lockscreen-widgets{position:absolute;top:214px;left:0;right:0;display:flex;justify-content:center;gap:10px;flex-wrap:wrap}
.wh-lockscreen-activities{position:absolute;left:11px;right:11px;display:flex;flex-direction:column;gap:11px}
.wh-activity-ended{position:relative}
.wh-activity-action{position:absolute;top:8px;right:10px;padding:3px 10px;border-radius:12px;background:rgba(120,120,128,.36);font-size:13px;font-weight:600}
.wh-activity-missing{height:60px;border-radius:22px;background:rgba(255,255,255,.18);display:flex;align-items:center;justify-content:center;font-size:13px}
.wh-islands-column h2{font-size:16px;margin:0 0 12px}
.wh-islands{margin:0 0 18px}.wh-islands-title{font-size:13px;margin:0 0 8px;font-weight:600}
.wh-island-figure{margin:0 0 10px;display:flex;flex-direction:column;align-items:flex-start;gap:4px}
.wh-island-figure .wh-island-row{justify-content:flex-start}
.wh-island-figure figcaption{font-size:11px;color:#6c6c70}
"""
}
