import Foundation
import WidgetHostProtocol
import WidgetHostRendering

/// One widget on the dashboard: the widget drawn at its family's size, and beside it what
/// the host knows about it — budget used of B with the 24-hour ledger as a strip, the next
/// reload and why, the last outcome with its duration and footprint, a stale badge — and
/// its actions. Deterministic for a snapshot; every string from an extension is escaped.
enum WidgetCard {
    static func isLockScreen(_ family: WidgetFamily) -> Bool { family.rawValue.hasPrefix("accessory") }

    /// The widget alone, as of `snapshot.now` (what a live update replaces).
    static func widget(_ status: WidgetStatus, _ snapshot: DashboardSnapshot, at instant: Date? = nil, entry: TimelineEntryPayload?? = nil)
        -> RenderedWidget
    {
        let id = status.widget.id
        let timeline = snapshot.timelines[id]
        var options = RenderOptions(at: instant ?? snapshot.now)
        options.family = status.widget.family
        options.widgetID = id
        options.placeholder = timeline?.placeholder?.view
        let shown: TimelineEntryPayload?
        if let entry {
            shown = entry
        } else {
            shown = status.currentEntry.entry
            options.redacted = status.currentEntry.source == .placeholder
            options.interaction = status.interaction
        }
        if let loaded = snapshot.catalog.loaded.first(where: { $0.id == status.widget.extension }) {
            options.images = BundleImages(
                bundle: URL(fileURLWithPath: loaded.path),
                appGroupContainers: loaded.appGroups.map { URL(fileURLWithPath: snapshot.appGroupsPath + "/" + $0) })
        }
        return WidgetRenderer.render(shown?.view, content: shown?.content ?? .null, options: options)
    }

    /// The whole card.
    static func html(_ status: WidgetStatus, _ snapshot: DashboardSnapshot) -> String {
        let id = HTMLText.attribute(status.widget.id)
        let widget = widget(status, snapshot)
        let now = snapshot.now
        var html = "<article class=\"wd-card\" id=\"card-\(id)\" data-id=\"\(id)\""
        html += " data-family=\"\(status.widget.family.rawValue)\" data-kind=\"\(HTMLText.attribute(status.widget.kind))\">"
        html += "<a class=\"wd-open\" href=\"/widgets/\(Self.pathComponent(status.widget.id))\" title=\"timeline and reload history\">"
        html += widget.html + "</a>"
        html += "<div class=\"wd-info\">"
        html += "<div class=\"wd-title\"><b>\(HTMLText.escape(status.widget.kind))</b> "
        html += "<span class=\"wd-muted\">\(HTMLText.escape(status.widget.id)) · \(status.widget.family.rawValue)</span>"
        if let since = status.staleSince {
            html += " <span class=\"wd-badge wd-stale\" title=\"a due or requested reload has waited since \(RFC3339.format(since))\">stale "
            html += Self.duration(status.staleSeconds) + "</span>"
        }
        if status.reloadRunning { html += " <span class=\"wd-badge wd-running\">reloading</span>" }
        if let interaction = status.interaction {
            html += " <span class=\"wd-badge wd-intent\" title=\"since \(RFC3339.format(interaction.startedAt))\">"
            html += "\(HTMLText.escape(interaction.intent)) \(interaction.endedAt == nil ? "running" : "done, reloading")</span>"
        }
        html += "</div>"
        html += budget(status.budget, now: now)
        html += "<div class=\"wd-line\">next reload: " + nextReload(status, now: now) + "</div>"
        html += "<div class=\"wd-line\">last: " + lastOutcome(status.lastOutcome, now: now) + "</div>"
        if let diagnostic = status.diagnostics.last {
            html += "<div class=\"wd-line wd-diagnostic\" title=\"\(HTMLText.attribute(diagnostic.message))\">"
            html += "\(HTMLText.escape(diagnostic.code))</div>"
        }
        for note in widget.notes { html += "<div class=\"wd-line wd-note\">\(HTMLText.escape(note))</div>" }
        html += actions(status)
        html += "</div></article>"
        return html
    }

    static func budget(_ budget: BudgetStatus, now: Date) -> String {
        var html = "<div class=\"wd-line wd-budget\"><span class=\"wd-used\">budget \(budget.used)/\(budget.limit)</span>"
        if !budget.enforced { html += " <span class=\"wd-muted\">(not enforced)</span>" }
        if budget.pinned { html += " <span class=\"wd-muted\">(pinned)</span>" }
        html += " " + ledger(budget.ledger, now: now) + "</div>"
        return html
    }

    /// The last 24 hours as a strip, one tick per budgeted reload, now at the right.
    static func ledger(_ ledger: [Date], now: Date) -> String {
        let width = 192.0
        var svg = "<svg class=\"wd-ledger\" width=\"\(Int(width))\" height=\"12\" viewBox=\"0 0 \(Int(width)) 12\""
        svg += " role=\"img\"><title>budgeted reloads in the last 24 hours: \(ledger.count)</title>"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"12\" rx=\"2\" class=\"wd-ledger-bg\"/>"
        for hour in stride(from: 6, to: 24, by: 6) {
            svg += "<rect x=\"\(Int(Double(hour) / 24 * width))\" y=\"0\" width=\"1\" height=\"12\" class=\"wd-ledger-grid\"/>"
        }
        for date in ledger {
            let age = now.timeIntervalSince(date)
            guard age >= 0, age <= 86_400 else { continue }
            let x = ((86_400 - age) / 86_400 * (width - 2)).rounded()
            svg += "<rect x=\"\(Int(x))\" y=\"1\" width=\"2\" height=\"10\" class=\"wd-ledger-tick\"/>"
        }
        return svg + "</svg>"
    }

    static func nextReload(_ status: WidgetStatus, now: Date) -> String {
        let next = status.nextReload
        guard let at = next.at else { return "<span class=\"wd-muted\">none (\(HTMLText.escape(next.cause)))</span>" }
        var text = "<span title=\"\(RFC3339.format(at))\">\(relative(at, now: now))</span> (\(HTMLText.escape(next.cause))"
        text += next.budgeted ? ", budgeted" : ", exempt"
        if let reason = next.deferredBy { text += ", deferred: \(reason.rawValue)" }
        return text + ")"
    }

    static func lastOutcome(_ outcome: LastOutcome?, now: Date) -> String {
        guard let outcome else { return "<span class=\"wd-muted\">no reload yet</span>" }
        var text = "<span class=\"wd-outcome wd-\(outcome.result == .success ? "ok" : "failed")\">\(outcome.result.rawValue)</span>"
        text += ", \(milliseconds(outcome.durationMs))"
        if let footprint = outcome.peakFootprintBytes { text += ", \(mebibytes(footprint))" }
        text += ", <span title=\"\(RFC3339.format(outcome.finishedAt))\">\(relative(outcome.finishedAt, now: now))</span>"
        if let detail = outcome.detail { text += " <span class=\"wd-muted\">— \(HTMLText.escape(detail))</span>" }
        return text
    }

    /// Write actions; the page's script sends them with the token (`/api/METHOD`).
    static func actions(_ status: WidgetStatus) -> String {
        let kind = HTMLText.attribute(status.widget.kind)
        let app = HTMLText.attribute(status.widget.app)
        let id = HTMLText.attribute(status.widget.id)
        var html = "<div class=\"wd-actions\">"
        html += "<button data-action=\"reloadTimelines\" data-kind=\"\(kind)\" data-app=\"\(app)\" title=\"as the app in the background: budgeted\">Reload</button>"
        html += "<button data-action=\"reloadTimelines\" data-kind=\"\(kind)\" data-app=\"\(app)\" data-foreground=\"1\" title=\"as the app in the foreground: exempt\">Reload (foreground)</button>"
        html += "<button data-action=\"recordView\" data-id=\"\(id)\" title=\"the user looked at it: engagement\">Record view</button>"
        html += "<button data-action=\"removeWidget\" data-id=\"\(id)\">Remove</button>"
        return html + "</div>"
    }

    // MARK: - Words for numbers

    static func relative(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let text = duration(abs(seconds))
        if abs(seconds) < 1 { return "now" }
        return seconds > 0 ? "in \(text)" : "\(text) ago"
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min" }
        if whole < 86_400 { return "\(whole / 3600) h \(whole % 3600 / 60) min" }
        return "\(whole / 86_400) d \(whole % 86_400 / 3600) h"
    }

    static func milliseconds(_ value: Double) -> String {
        value < 1000 ? "\(Int(value.rounded())) ms" : String(format: "%.1f s", value / 1000)
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }

    private static let pathSafe = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

    /// A widget id in a path: letters, digits, `-`, `_` and `.` as they are; the rest escaped.
    static func pathComponent(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: pathSafe) ?? ""
    }
}
