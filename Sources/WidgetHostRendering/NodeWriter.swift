import Foundation
import WidgetHostProtocol

/// Writes one archive's nodes as HTML. Every string from the archive goes through
/// `HTMLText`; every colour, size and alignment is looked up or computed, never copied.
struct NodeWriter {
    var out = ""
    var notes: [String] = []
    let options: RenderOptions

    init(options: RenderOptions) {
        self.options = options
        out.reserveCapacity(8192)
    }

    mutating func note(_ sentence: String) {
        if !notes.contains(sentence) { notes.append(sentence) }
    }

    /// A node with its modifiers: the modifiers wrap the content, first one innermost.
    mutating func write(_ node: ViewNode, _ context: RenderContext) {
        if context.depth > 80 {
            note("the view is nested more than 80 levels deep; the rest is not drawn")
            return
        }
        var context = context
        context.depth += 1
        writeModified(node, modifiers: node.modifiers[...], context)
    }

    /// Modifiers are applied outermost first: the last in the list wraps everything.
    private mutating func writeModified(_ node: ViewNode, modifiers: ArraySlice<ViewModifierNode>, _ context: RenderContext) {
        guard let outer = modifiers.last else {
            writeContent(node, context)
            return
        }
        let inner = modifiers.dropLast()
        var bare = node
        bare.modifiers = Array(inner)
        let flexibility = Layout.flexibility(bare, in: context.axis)
        let outerFlexibility: Flexibility = {
            var withOuter = bare
            withOuter.modifiers.append(outer)
            return Layout.flexibility(withOuter, in: context.axis)
        }()
        writeModifier(outer, around: { writer, innerContext in writer.writeModified(node, modifiers: inner, innerContext) },
            inner: flexibility, outer: outerFlexibility, context)
    }

    // MARK: Content

    mutating func writeContent(_ node: ViewNode, _ context: RenderContext) {
        let item = context.itemStyle(Layout.flexibility(ViewNode(node.content), in: context.axis))
        switch node.content {
        case .empty:
            break
        case .text(let runs):
            writeText(runs, item: item, context)
        case .vstack(let alignment, let spacing, let children):
            writeStack("wh-vstack", axis: .vertical, alignment: alignment, spacing: spacing, children, item: item, context)
        case .hstack(let alignment, let spacing, let children):
            writeStack("wh-hstack", axis: .horizontal, alignment: alignment, spacing: spacing, children, item: item, context)
        case .zstack(let alignment, let children):
            out += "<div class=\"wh-zstack\" style=\"\(item)\">"
            var inner = context
            inner.axis = .layered
            for child in children {
                out += "<div class=\"wh-layer\" style=\"\(AlignmentCSS.gridSelf(alignment))"
                let flexibility = Layout.flexibility(child, in: .layered)
                if flexibility.horizontal { out += "justify-self:stretch;" }
                if flexibility.vertical { out += "align-self:stretch;" }
                out += "\">"
                var layer = inner
                layer.axis = .vertical
                write(child, layer)
                out += "</div>"
            }
            out += "</div>"
        case .group(let children):
            writeStack("wh-vstack", axis: .vertical, alignment: "center", spacing: nil, children, item: item, context)
        case .spacer(let minLength):
            let length = CSSNumber.px(max(0, min(minLength ?? 8, 2000)))
            let minimum = context.axis == .horizontal ? "min-width:\(length)" : "min-height:\(length)"
            out += "<div class=\"wh-spacer\" style=\"\(item)\(minimum)\"></div>"
        case .divider:
            out += "<div class=\"\(context.axis == .horizontal ? "wh-divider-v" : "wh-divider")\" style=\"\(item)background:\(dividerColor(context))\"></div>"
        case .image(let image):
            writeImage(image, item: item, context)
        case .label(let title, let icon, let style):
            out += "<span class=\"wh-label\" style=\"\(item)\">"
            var inner = context
            inner.axis = .horizontal
            if style != "titleOnly" { write(icon, inner) }
            if style != "iconOnly" { write(title, inner) }
            out += "</span>"
        case .gauge(let gauge):
            writeGauge(gauge, item: item, context)
        case .progress(let progress):
            writeProgress(progress, item: item, context)
        case .button(let control), .toggle(let control):
            // A tap target: the dashboard posts `tap {id, button}` with data-wh-button. A Toggle
            // whose intent is running shows the state the tap gave it.
            let running = options.interaction.flatMap { $0.button == control.id ? $0 : nil }
            let isOn = control.isOn.map { running?.toggledTo ?? $0 }
            var classes = "wh-button"
            if let isOn { classes += " wh-toggle" + (isOn ? " wh-on" : "") }
            if running != nil { classes += " wh-tapped" }
            out += "<span class=\"\(classes)\" data-wh-button=\"\(HTMLText.attribute(control.id))\""
            out += " title=\"\(HTMLText.attribute(control.intent.displayName))\" style=\"\(item)\">"
            var inner = context
            inner.axis = .vertical
            write(control.label, inner)
            if isOn != nil { out += "<span class=\"wh-switch\"></span>" }
            out += "</span>"
        case .link(let url, let label):
            out += "<span class=\"wh-link\" data-wh-url=\"\(HTMLText.attribute(url))\" style=\"\(item)\">"
            var inner = context
            inner.axis = .vertical
            write(label, inner)
            out += "</span>"
        case .shape(let shape, let fill, let stroke, let lineWidth):
            out += "<div class=\"wh-shape\(context.redacted ? " wh-redact" : "")\" style=\"\(item)"
            if let radius = ShapeCSS.radius(shape) { out += "border-radius:\(radius);" }
            if let stroke {
                let width = CSSNumber.px(max(0, min(lineWidth ?? 1, 100)))
                out += "box-shadow:inset 0 0 0 \(width) \(context.color(stroke));"
            }
            if let fill {
                out += "background:\(context.background(fill))"
            } else if stroke == nil {
                out += "background:currentColor"
            }
            out += "\"></div>"
        case .fill(let style):
            out += "<div class=\"wh-fill\" style=\"\(item)background:\(context.background(style))\"></div>"
        case .accessoryWidgetBackground:
            out += "<div class=\"wh-accessory-background\" style=\"\(item)\"></div>"
        case .viewThatFits(_, let children):
            let chosen = children.first { child in
                let size = Layout.estimate(child, fontSize: context.fontSize)
                return size.width <= context.available.width && size.height <= context.available.height
            } ?? children.last
            if let chosen { write(chosen, context) }
        case .unknown(let type):
            note("unknown view node \"\(type)\" shown as a placeholder")
            out += "<div class=\"wh-unknown\" title=\"unknown view: \(HTMLText.attribute(type))\" style=\"\(item)\"></div>"
        }
    }

    private func dividerColor(_ context: RenderContext) -> String {
        let base = context.palette.scheme == .dark ? RGBA(84, 84, 88, 0.6) : RGBA(60, 60, 67, 0.29)
        return context.palette.rendered(base, accentable: context.accentable).css
    }

    private mutating func writeStack(
        _ cssClass: String, axis: Axis, alignment: String, spacing: Double?, _ children: [ViewNode], item: String,
        _ context: RenderContext
    ) {
        let gap = CSSNumber.px(max(0, min(spacing ?? 8, 1000)))
        out += "<div class=\"\(cssClass)\" style=\"\(item)align-items:\(AlignmentCSS.crossAxis(alignment));gap:\(gap)\">"
        var inner = context
        inner.axis = axis
        for child in children { write(child, inner) }
        out += "</div>"
    }

    // MARK: Text

    private mutating func writeText(_ runs: [ArchiveTextRun], item: String, _ context: RenderContext) {
        // Styles all runs share go on the text itself, so that its line clamp's ellipsis
        // has the text's font and colour.
        let styles = runs.map { runStyle($0, context) }
        let shared = styles.first.flatMap { first in styles.allSatisfy { $0 == first } ? first : nil } ?? ""
        out += "<span class=\"wh-text\(context.redacted ? " wh-redact" : "")\" style=\"\(item)\(shared)\">"
        for (run, style) in zip(runs, styles) { writeRun(run, style: shared.isEmpty ? style : "", context) }
        out += "</span>"
    }

    private func runStyle(_ run: ArchiveTextRun, _ context: RenderContext) -> String {
        var style = ""
        if let font = run.font { style += Typography.css(font) + ";" }
        if let weight = Typography.weight(run.fontWeight) { style += "font-weight:\(weight);" }
        if run.bold == true { style += "font-weight:700;" }
        if run.italic == true { style += "font-style:italic;" }
        if run.underline == true || run.strikethrough == true {
            style += "text-decoration:\(run.underline == true ? "underline " : "")\(run.strikethrough == true ? "line-through" : "");"
        }
        if let foreground = run.foreground { style += "color:\(context.color(foreground));" }
        return style
    }

    private mutating func writeRun(_ run: ArchiveTextRun, style: String, _ context: RenderContext) {
        let open = style.isEmpty ? "<span>" : "<span style=\"\(style)\">"
        switch run.content {
        case .string(let text):
            if style.isEmpty {
                out += HTMLText.escape(text)
            } else {
                out += open + HTMLText.escape(text) + "</span>"
            }
        case .symbol(let name):
            out += open
            writeSymbol(name, resizable: false)
            out += "</span>"
        case .date(let date, let dateStyle):
            let text = DateText.format(run.content, at: options.at, timeZone: options.timeZone)
            if run.isLive {
                out += "<span data-wh-style=\"\(dateStyle.rawValue)\" data-wh-date=\"\(Self.seconds(date))\""
                out += style.isEmpty ? ">" : " style=\"\(style)\">"
                out += HTMLText.escape(text) + "</span>"
            } else {
                out += open + HTMLText.escape(text) + "</span>"
            }
        case .timer(let start, let end, let countsDown, let showsHours):
            let text = DateText.format(run.content, at: options.at, timeZone: options.timeZone)
            out += "<span data-wh-style=\"timerInterval\" data-wh-start=\"\(Self.seconds(start))\" data-wh-end=\"\(Self.seconds(end))\""
            out += " data-wh-down=\"\(countsDown ? 1 : 0)\" data-wh-hours=\"\(showsHours ? 1 : 0)\""
            out += style.isEmpty ? ">" : " style=\"\(style)\">"
            out += HTMLText.escape(text) + "</span>"
        }
    }

    /// Seconds since 1970, as the live script reads them.
    static func seconds(_ date: Date) -> String {
        CSSNumber.format(date.timeIntervalSince1970)
    }

    // MARK: Symbols and images

    mutating func writeSymbol(_ name: String, resizable: Bool) {
        let size = resizable ? "100%" : "1em"
        if let icon = SymbolPaths.lucideName[name], let paths = SymbolPaths.paths[icon] {
            out += "<svg class=\"wh-symbol\" viewBox=\"0 0 24 24\" width=\"\(size)\" height=\"\(size)\" fill=\"none\" stroke=\"currentColor\""
            out += " stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\" role=\"img\" aria-label=\"\(HTMLText.attribute(name))\">"
            out += paths + "</svg>"
        } else {
            note("no symbol named \"\(name)\" in the host's symbol set; drawn as a labelled box")
            out += "<span class=\"wh-symbol-missing\" title=\"symbol \(HTMLText.attribute(name))\">\(HTMLText.escape(name))</span>"
        }
    }

    private mutating func writeImage(_ image: ArchiveImage, item: String, _ context: RenderContext) {
        let redact = context.redacted ? " wh-redact" : ""
        switch image.source {
        case .system(let name):
            out += "<span class=\"wh-image\(redact)\" style=\"\(item)\(image.resizable ? "width:100%;height:100%;" : "")\">"
            writeSymbol(name, resizable: image.resizable)
            out += "</span>"
        case .asset(let name), .file(let name):
            let lookup: ImageLookup =
                if case .asset = image.source { options.images.image(asset: name) } else { options.images.image(file: name) }
            switch lookup {
            case .found(let dataURL):
                let fit = image.resizable ? "width:100%;height:100%;object-fit:\(context.contentMode == "fill" ? "cover" : "contain");" : ""
                out += "<img class=\"wh-image\(redact)\" src=\"\(HTMLText.attribute(dataURL))\" alt=\"\(HTMLText.attribute(image.label ?? ""))\" style=\"\(item)\(fit)\">"
            case .refused(let reason):
                note("image refused: \(reason)")
                out += "<span class=\"wh-image-refused\" title=\"\(HTMLText.attribute(reason))\" style=\"\(item)\">"
                out += HTMLText.escape(image.label ?? "image") + "</span>"
            }
        }
    }
}
