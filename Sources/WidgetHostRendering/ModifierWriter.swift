import WidgetHostProtocol

extension NodeWriter {
    typealias Inner = (inout NodeWriter, RenderContext) -> Void

    /// One modifier around the view inside it. Layout modifiers (padding, frame, background,
    /// clip, opacity) are a box around the view; text-wide ones (font, foreground, line limit)
    /// a `display: contents` span that only passes inherited CSS down; the rest only change
    /// what the view inside inherits (accent group, redaction, tint).
    mutating func writeModifier(
        _ modifier: ViewModifierNode, around inner: Inner, inner innerFlexibility: Flexibility,
        outer outerFlexibility: Flexibility, _ context: RenderContext
    ) {
        let item = context.itemStyle(outerFlexibility)
        var boxed = context
        boxed.axis = .vertical
        switch modifier {
        case .padding(let top, let leading, let bottom, let trailing):
            let edges = [top, trailing, bottom, leading].map { CSSNumber.px(min($0, 2000)) }.joined(separator: " ")
            boxed.available = (
                max(0, context.available.width - leading - trailing), max(0, context.available.height - top - bottom)
            )
            box(item + "padding:\(edges)", boxed, inner)
        case .frame(let frame):
            var style = item
            if let width = frame.width { style += "width:\(CSSNumber.px(min(width, 5000)));flex-shrink:0;" }
            if let height = frame.height { style += "height:\(CSSNumber.px(min(height, 5000)));flex-shrink:0;" }
            if let minWidth = frame.minWidth { style += "min-width:\(CSSNumber.px(min(minWidth, 5000)));" }
            if let minHeight = frame.minHeight { style += "min-height:\(CSSNumber.px(min(minHeight, 5000)));" }
            if case .points(let maxWidth) = frame.maxWidth { style += "max-width:\(CSSNumber.px(min(maxWidth, 5000)));" }
            if case .points(let maxHeight) = frame.maxHeight { style += "max-height:\(CSSNumber.px(min(maxHeight, 5000)));" }
            let alignment = AlignmentCSS.column(frame.alignment)
            style += "justify-content:\(alignment.vertical);align-items:\(alignment.horizontal)"
            boxed.available = (frame.width ?? context.available.width, frame.height ?? context.available.height)
            box(style, boxed, inner)
        case .background(let style, let shape, let view, let alignment):
            if let view {
                layers(item, behind: view, alignment: alignment, boxed, inner)
            } else {
                var css = item
                if let style { css += "background:\(context.background(style));" }
                if let shape, let radius = ShapeCSS.radius(shape) { css += "border-radius:\(radius)" }
                box(css, boxed, inner)
            }
        case .overlay(let view, let alignment):
            layers(item, inFront: view, alignment: alignment, boxed, inner)
        case .clipShape(let shape):
            box(item + "overflow:hidden;border-radius:\(ShapeCSS.radius(shape) ?? "0")", boxed, inner)
        case .opacity(let opacity):
            box(item + "opacity:\(CSSNumber.format(min(1, max(0, opacity))))", boxed, inner)
        case .aspectRatio(let ratio, let contentMode):
            boxed.contentMode = contentMode
            var css = item
            if let ratio, ratio.isFinite, ratio > 0 { css += "aspect-ratio:\(CSSNumber.format(min(ratio, 100)))" }
            box(css, boxed, inner)
        case .font(let font):
            var passed = context
            let css = font.map(Typography.css) ?? "font-size:17px;font-weight:400;font-family:inherit"
            passed.fontSize = Typography.pointSize(font, inherited: 17)
            contents(css, passed, inner)
        case .fontWeight(let weight):
            contents("font-weight:\(Typography.weight(weight) ?? 400)", context, inner)
        case .foregroundStyle(let style):
            var passed = context
            passed.foreground = style
            contents("color:\(context.color(style))", passed, inner)
        case .lineLimit(let limit):
            contents(limit.map { "--wh-lines:\(min($0, 1000))" } ?? "--wh-lines:9999", context, inner)
        case .minimumScaleFactor:
            // Shrinking text to fit needs a layout engine; the text is truncated instead.
            inner(&self, context)
        case .multilineTextAlignment(let alignment):
            contents("text-align:\(AlignmentCSS.textAlign(alignment))", context, inner)
        case .invalidatableContent(let invalidatable):
            if invalidatable {
                out += "<span class=\"wh-c wh-invalidatable\">"
                inner(&self, context)
                out += "</span>"
            } else {
                inner(&self, context)
            }
        case .contentTransition(let transition):
            let known = ["numericText", "opacity", "interpolate", "identity"].contains(transition) ? transition : "identity"
            out += "<span class=\"wh-c\" data-wh-transition=\"\(known)\">"
            inner(&self, context)
            out += "</span>"
        case .widgetAccentable(let accentable):
            var passed = context
            passed.accentable = accentable
            if context.palette.mode == .accented, accentable != context.accentable {
                // The inherited foreground changes group: draw it in the accent (or back in white).
                contents("color:\(passed.color(context.foreground ?? ArchiveStyle(.hierarchical(1))))", passed, inner)
            } else {
                inner(&self, passed)
            }
        case .privacySensitive(let sensitive):
            var passed = context
            if sensitive && options.locked { passed.redacted = true }
            inner(&self, passed)
        case .redacted(let reason):
            var passed = context
            passed.redacted = reason != nil || options.redacted
            inner(&self, passed)
        case .tint(let style):
            var passed = context
            passed.tint = style
            inner(&self, passed)
        case .containerBackground, .widgetURL, .widgetAccentedRenderingMode, .activityBackgroundTint,
            .activitySystemActionForegroundColor:
            // The widget box (or the Live Activity's banner) draws the container background and
            // the activity's tints, and carries the URL.
            inner(&self, context)
        case .unknown(let type):
            note("unknown modifier \"\(type)\" ignored")
            inner(&self, context)
        }
    }

    private mutating func box(_ style: String, _ context: RenderContext, _ inner: Inner) {
        out += "<div class=\"wh-m\" style=\"\(style)\">"
        inner(&self, context)
        out += "</div>"
    }

    private mutating func contents(_ style: String, _ context: RenderContext, _ inner: Inner) {
        out += "<span class=\"wh-c\" style=\"\(style)\">"
        inner(&self, context)
        out += "</span>"
    }

    private mutating func layers(
        _ item: String, behind: ViewNode? = nil, inFront: ViewNode? = nil, alignment: String, _ context: RenderContext,
        _ inner: Inner
    ) {
        out += "<div class=\"wh-layers\" style=\"\(item)\">"
        var layer = context
        layer.axis = .vertical
        func extra(_ writer: inout NodeWriter, _ node: ViewNode) {
            let position = AlignmentCSS.column(alignment)
            writer.out += "<div class=\"wh-layer wh-m\" style=\"justify-self:stretch;align-self:stretch;"
            writer.out += "justify-content:\(position.vertical);align-items:\(position.horizontal)\">"
            writer.write(node, layer)
            writer.out += "</div>"
        }
        if let behind { extra(&self, behind) }
        out += "<div class=\"wh-layer wh-m\" style=\"justify-self:stretch;align-self:stretch\">"
        inner(&self, layer)
        out += "</div>"
        if let inFront { extra(&self, inFront) }
        out += "</div>"
    }
}
