/// Whole pages around rendered widgets: one stylesheet, one live script, then the fragments.
public enum HTMLPage {
    /// A page exactly one widget big, for a screenshot (`widgethost render --png`).
    public static func single(_ widget: RenderedWidget, title: String) -> String {
        let backdrop = widget.family.isAccessory ? "#1d2a3a" : "transparent"
        return document(
            title: title,
            extraCSS: "html,body{margin:0;padding:0;background:\(backdrop)}",
            body: widget.html)
    }

    /// A titled list of sections, each a row of captioned widgets (the gallery).
    public static func gallery(title: String, sections: [(heading: String, items: [(caption: String, widget: RenderedWidget)])]) -> String {
        var body = "<h1>\(HTMLText.escape(title))</h1>"
        for section in sections {
            body += "<section><h2>\(HTMLText.escape(section.heading))</h2><div class=\"wh-row\">"
            for item in section.items {
                let backdrop = item.widget.family.isAccessory ? " wh-lockscreen" : ""
                body += "<figure class=\"wh-figure\(backdrop)\">\(item.widget.html)"
                body += "<figcaption>\(HTMLText.escape(item.caption))</figcaption>"
                for note in item.widget.notes { body += "<p class=\"wh-note\">\(HTMLText.escape(note))</p>" }
                body += "</figure>"
            }
            body += "</div></section>"
        }
        let css = """
body{margin:24px;background:#e9e9ee;color:#1c1c1e;font:14px system-ui,sans-serif}
h1{font-size:22px}h2{font-size:16px;margin:28px 0 10px}
.wh-row{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
.wh-figure{margin:0;display:flex;flex-direction:column;gap:6px;padding:10px;border-radius:14px;background:#dcdce2;max-width:740px}
.wh-lockscreen{background:#1d2a3a;color:#fff}
figcaption{font-size:12px}.wh-note{margin:0;font-size:11px;color:#b3261e;max-width:360px}
"""
        return document(title: title, extraCSS: css, body: body)
    }

    static func document(title: String, extraCSS: String, body: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(HTMLText.escape(title))</title>"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
            + "<style>\(Stylesheet.css)\n\(extraCSS)</style></head><body>\(body)<script>\(LiveScript.source)</script></body></html>\n"
    }
}
