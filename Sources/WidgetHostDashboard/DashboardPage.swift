import Foundation
import WidgetHostProtocol
import WidgetHostRendering

/// The dashboard's pages: the home screen and lock screen with every widget, and one
/// widget's timeline and reload history. Self-contained (no remote resource: the page works
/// without any internet), with a policy that allows no other origin.
enum DashboardPage {
    /// The home page: a home-screen grid and a lock screen, live.
    static func home(_ snapshot: DashboardSnapshot, token: DashboardToken) -> String {
        let home = snapshot.widgets.filter { !WidgetCard.isLockScreen($0.widget.family) }
        let lock = snapshot.widgets.filter { WidgetCard.isLockScreen($0.widget.family) }
        var body = header(snapshot, title: "widgethost")
        body += "<section><h2>Home Screen</h2><div class=\"wd-grid\" id=\"wd-home\">"
        body += home.map { WidgetCard.html($0, snapshot) }.joined()
        body += "</div></section>"
        body += "<section class=\"wd-lockscreen\"><h2>Lock Screen</h2><div class=\"wd-grid\" id=\"wd-lock\">"
        body += lock.map { WidgetCard.html($0, snapshot) }.joined()
        body += "</div></section>"
        body += "<section class=\"wd-activities\"><h2>Live Activities</h2><div id=\"wd-activities\">"
        body += activities(snapshot) + "</div></section>"
        body += addForm(snapshot.catalog)
        return document(title: "widgethost", token: token, body: body)
    }

    /// The Lock Screen with the Live Activities and the lock screen widgets, and each ongoing
    /// activity's Dynamic Island in every presentation (replaced whole by the live `activities` event).
    static func activities(_ snapshot: DashboardSnapshot) -> String {
        let options = RenderOptions(at: snapshot.now)
        let (screen, _, _) = LockScreen.screen(activities: snapshot.activities, widgets: [], options: options)
        var html = "<div class=\"wd-activities-row\">\(screen)<div class=\"wd-islands\">"
        let ongoing = snapshot.activities.filter(\.isInDynamicIsland)
        if ongoing.isEmpty { html += "<p class=\"wd-muted\">No ongoing Live Activity.</p>" }
        for activity in ongoing { html += LockScreen.islands(activity, options: options).html }
        return html + "</div></div>"
    }

    /// One widget: its card, its timeline with a scrubber over the entries' dates (future
    /// ones included), and the reloads this daemon has seen since it started.
    static func detail(_ status: WidgetStatus, _ snapshot: DashboardSnapshot, history: [HistoryLine], token: DashboardToken)
        -> String
    {
        var body = header(snapshot, title: "\(status.widget.kind) · \(status.widget.id)")
        body += "<p><a href=\"/\">← all widgets</a></p>"
        let section = WidgetCard.isLockScreen(status.widget.family) ? " class=\"wd-lockscreen\"" : ""
        body += "<section\(section)><div class=\"wd-grid\" id=\"wd-detail\">" + WidgetCard.html(status, snapshot) + "</div></section>"
        body += timeline(status, snapshot)
        body += "<section><h2>Reload history</h2>"
        if history.isEmpty {
            body += "<p class=\"wd-muted\">No reload since widgethostd started.</p>"
        } else {
            body += "<table class=\"wd-history\"><tr><th>time</th><th>what</th></tr>"
            for line in history.reversed() {
                body += "<tr><td>\(RFC3339.format(line.at))</td><td>\(HTMLText.escape(line.text))</td></tr>"
            }
            body += "</table>"
        }
        body += "</section>"
        return document(title: "\(status.widget.id) · widgethost", token: token, body: body)
    }

    /// Every entry drawn at its own date, one shown at a time by the scrubber.
    static func timeline(_ status: WidgetStatus, _ snapshot: DashboardSnapshot) -> String {
        guard let timeline = snapshot.timelines[status.widget.id], !timeline.entries.isEmpty else {
            return "<section><h2>Timeline</h2><p class=\"wd-muted\">No timeline yet.</p></section>"
        }
        let entries = timeline.entries.sorted { $0.date < $1.date }
        let current = entries.lastIndex { $0.date <= snapshot.now } ?? 0
        var html = "<section><h2>Timeline</h2><p>\(entries.count) entr\(entries.count == 1 ? "y" : "ies")"
        if let policy = timeline.policy { html += ", policy \(HTMLText.escape(policy.description))" }
        if let received = timeline.receivedAt { html += ", received \(RFC3339.format(received))" }
        html += "</p><input type=\"range\" id=\"wd-scrubber\" min=\"0\" max=\"\(entries.count - 1)\" value=\"\(current)\">"
        html += " <output id=\"wd-scrubber-date\"></output><div class=\"wd-entries\">"
        for (index, entry) in entries.enumerated() {
            let drawn = WidgetCard.widget(status, snapshot, at: max(entry.date, snapshot.now), entry: .some(entry))
            let when = entry.date <= snapshot.now ? "past" : "future"
            html += "<div class=\"wd-entry\" data-index=\"\(index)\" data-date=\"\(RFC3339.format(entry.date))\" data-when=\"\(when)\""
            html += index == current ? ">" : " hidden>"
            html += drawn.html + "</div>"
        }
        return html + "</div></section>"
    }

    static func header(_ snapshot: DashboardSnapshot, title: String) -> String {
        let widgets = snapshot.widgets.count
        let extensions = snapshot.catalog.loaded.count
        var html = "<header><h1>\(HTMLText.escape(title))</h1><p class=\"wd-muted\">"
        html += "\(widgets) widget\(widgets == 1 ? "" : "s"), \(extensions) extension\(extensions == 1 ? "" : "s")"
        html += " · <a href=\"/metrics\">metrics</a> · <span id=\"wd-connection\">connecting…</span></p>"
        html += "<p id=\"wd-status\" role=\"status\"></p></header>"
        return html
    }

    static func addForm(_ catalog: ExtensionsResult) -> String {
        var html = "<section><h2>Add a widget</h2><form id=\"wd-add\"><select name=\"kind\">"
        for loaded in catalog.loaded {
            for widget in loaded.widgets {
                html += "<option value=\"\(HTMLText.attribute(widget.kind))\">\(HTMLText.escape(widget.kind))"
                html += " (\(HTMLText.escape(loaded.displayName)))</option>"
            }
        }
        html += "</select> <select name=\"family\">"
        for family in WidgetFamily.allCases {
            html += "<option value=\"\(family.rawValue)\">\(family.rawValue)</option>"
        }
        return html + "</select> <button type=\"submit\">Add</button></form></section>"
    }

    static func document(title: String, token: DashboardToken, body: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(HTMLText.escape(title))</title>"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            + "style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; form-action 'none'\">"
            + "<meta name=\"wh-token\" content=\"\(HTMLText.attribute(token.value))\">"
            + "<style>\(Stylesheet.css)\n\(LockScreen.css)\n\(css)</style></head><body>\(body)"
            + "<script>\(LiveScript.source)</script><script>\(DashboardScript.source)</script></body></html>\n"
    }

    static let css = """
body{margin:20px 28px;background:#e9e9ee;color:#1c1c1e;font:13px system-ui,sans-serif}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:22px 0 10px}
a{color:#0a58ca}.wd-muted{color:#6b6b73}
.wd-grid{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.wd-card{display:flex;gap:12px;padding:12px;border-radius:16px;background:#f7f7fa;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.wd-open{display:block;text-decoration:none;color:inherit;flex:none}
.wd-info{display:flex;flex-direction:column;gap:5px;width:300px}
.wd-line{font-size:12px}.wd-note,.wd-diagnostic{color:#b3261e}
.wd-badge{font-size:11px;padding:1px 6px;border-radius:8px;background:#ddd}
.wd-stale{background:#ffd8a8;color:#7a3e00}.wd-running{background:#cfe2ff;color:#0a3a8a}.wd-intent{background:#e5dbff;color:#3b1f8a}
.wd-outcome.wd-ok{color:#1b7f37}.wd-outcome.wd-failed{color:#b3261e;font-weight:600}
.wd-ledger{vertical-align:middle}.wd-ledger-bg{fill:#e2e2e8}.wd-ledger-grid{fill:#c8c8d0}.wd-ledger-tick{fill:#0a58ca}
.wd-actions{display:flex;flex-wrap:wrap;gap:4px;margin-top:4px}
.wd-actions button{font-size:11px}
.wd-activities-row{display:flex;gap:24px;align-items:flex-start}.wd-islands{min-width:420px}
.wd-lockscreen{background:#1d2a3a;color:#fff;padding:4px 16px 16px;border-radius:18px}
.wd-lockscreen .wd-card{background:#2a3a4e;color:#fff}.wd-lockscreen .wd-muted{color:#b8c2cf}
.wd-lockscreen a{color:#9ec5fe}.wd-lockscreen .wd-outcome.wd-ok{color:#7ee2a0}.wd-lockscreen .wd-outcome.wd-failed{color:#ff9b92}
.wd-history{border-collapse:collapse}.wd-history td,.wd-history th{border-bottom:1px solid #d0d0d6;padding:3px 10px;text-align:left}
.wd-entries{margin-top:10px}
#wd-status{min-height:1em;margin:2px 0;font-size:12px}
"""
}

/// One line of a widget's reload history, as the dashboard saw it.
struct HistoryLine: Sendable, Hashable {
    var at: Date
    var text: String
}
