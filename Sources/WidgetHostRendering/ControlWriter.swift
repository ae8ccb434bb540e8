import WidgetHostProtocol

extension NodeWriter {
    /// Gauges as iOS draws each style: rings for the accessory circular styles (a closed
    /// ring for capacity, an open arc with a marker otherwise), a bar for the linear ones.
    mutating func writeGauge(_ gauge: ArchiveGauge, item: String, _ context: RenderContext) {
        let fraction = gauge.fraction
        let fill = context.tint.map { context.color($0) } ?? context.palette.rendered(context.palette.accent, accentable: true).css
        var labels = context
        labels.axis = .vertical
        switch gauge.style {
        case "accessoryCircular", "accessoryCircularCapacity":
            let capacity = gauge.style == "accessoryCircularCapacity"
            out += "<div class=\"wh-gauge-ring\(context.redacted ? " wh-redact" : "")\" style=\"\(item)\">"
            out += ring(fraction: fraction, open: !capacity, fill: fill, context)
            out += "<div class=\"wh-gauge-center\">"
            if let current = gauge.currentValueLabel {
                write(current, labels)
            } else if let label = gauge.label {
                write(label, labels)
            }
            out += "</div>"
            if !capacity, gauge.minimumValueLabel != nil || gauge.maximumValueLabel != nil {
                out += "<div class=\"wh-gauge-bounds\">"
                if let minimum = gauge.minimumValueLabel { write(minimum, labels) }
                if let maximum = gauge.maximumValueLabel { write(maximum, labels) }
                out += "</div>"
            }
            out += "</div>"
        default:
            let accessory = gauge.style.hasPrefix("accessory")
            out += "<div class=\"wh-gauge-linear\(context.redacted ? " wh-redact" : "")\" style=\"\(item)\">"
            if let label = gauge.label, !accessory {
                out += "<div class=\"wh-gauge-label\">"
                write(label, labels)
                out += "</div>"
            }
            out += "<div class=\"wh-gauge-row\">"
            if let minimum = gauge.minimumValueLabel { write(minimum, labels) }
            out += "<div class=\"wh-bar\(accessory ? " wh-bar-thin" : "")\">"
            if gauge.style == "accessoryLinear" {
                out += "<div class=\"wh-bar-marker\" style=\"left:\(CSSNumber.format(fraction * 100))%\"></div>"
            } else {
                out += "<div class=\"wh-bar-fill\" style=\"width:\(CSSNumber.format(fraction * 100))%;background:\(fill)\"></div>"
            }
            out += "</div>"
            if let maximum = gauge.maximumValueLabel { write(maximum, labels) }
            out += "</div>"
            if let current = gauge.currentValueLabel, !accessory {
                out += "<div class=\"wh-gauge-label\">"
                write(current, labels)
                out += "</div>"
            }
            out += "</div>"
        }
    }

    /// An SVG ring: a track and an arc for `fraction` (open: a 270° arc with a gap at the bottom).
    private func ring(fraction: Double, open: Bool, fill: String, _ context: RenderContext) -> String {
        let radius = 42.0
        let circumference = 2 * Double.pi * radius
        let span = open ? 0.75 : 1.0
        let track = circumference * span
        let value = track * min(1, max(0, fraction))
        let rotation = open ? 135.0 : -90.0
        let trackColor = context.palette.rendered(context.palette.label(3), accentable: false).css
        var svg = "<svg class=\"wh-ring\" viewBox=\"0 0 100 100\" aria-hidden=\"true\">"
        svg += "<g transform=\"rotate(\(CSSNumber.format(rotation)) 50 50)\" fill=\"none\" stroke-width=\"8\" stroke-linecap=\"round\">"
        svg += "<circle cx=\"50\" cy=\"50\" r=\"42\" stroke=\"\(trackColor)\" stroke-dasharray=\"\(CSSNumber.format(track)) \(CSSNumber.format(circumference))\"/>"
        if open {
            let angle = (span * fraction) * 2 * Double.pi
            let x = 50 + radius * cos(angle)
            let y = 50 + radius * sin(angle)
            svg += "<circle cx=\"\(CSSNumber.format(x))\" cy=\"\(CSSNumber.format(y))\" r=\"5\" fill=\"\(fill)\" stroke=\"none\"/>"
        } else if value > 0 {
            svg += "<circle cx=\"50\" cy=\"50\" r=\"42\" stroke=\"\(fill)\" stroke-dasharray=\"\(CSSNumber.format(value)) \(CSSNumber.format(circumference))\"/>"
        }
        svg += "</g></svg>"
        return svg
    }

    /// Progress views: a bar (linear) or a ring (circular); a timer interval's bar is
    /// computed at the display instant and kept moving by the live script.
    mutating func writeProgress(_ progress: ArchiveProgress, item: String, _ context: RenderContext) {
        let fill = context.tint.map { context.color($0) } ?? context.palette.rendered(context.palette.accent, accentable: true).css
        var labels = context
        labels.axis = .vertical
        var fraction = progress.fraction
        if let timer = progress.timer {
            fraction = DateText.timerFraction(start: timer.start, end: timer.end, countsDown: timer.countsDown, at: options.at)
        }
        if progress.style == "circular" {
            out += "<div class=\"wh-gauge-ring wh-progress-ring\(context.redacted ? " wh-redact" : "")\" style=\"\(item)\">"
            out += ring(fraction: fraction ?? 0.25, open: false, fill: fill, context)
            out += "<div class=\"wh-gauge-center\">"
            if let current = progress.currentValueLabel { write(current, labels) }
            out += "</div></div>"
            return
        }
        out += "<div class=\"wh-gauge-linear\(context.redacted ? " wh-redact" : "")\" style=\"\(item)\">"
        if let label = progress.label {
            out += "<div class=\"wh-gauge-label\">"
            write(label, labels)
            out += "</div>"
        }
        out += "<div class=\"wh-gauge-row\"><div class=\"wh-bar\">"
        let width = CSSNumber.format((fraction ?? 0.3) * 100)
        out += "<div class=\"wh-bar-fill\(fraction == nil ? " wh-indeterminate" : "")\" style=\"width:\(width)%;background:\(fill)\""
        if let timer = progress.timer {
            out += " data-wh-progress-start=\"\(Self.seconds(timer.start))\" data-wh-progress-end=\"\(Self.seconds(timer.end))\""
            out += " data-wh-down=\"\(timer.countsDown ? 1 : 0)\""
        }
        out += "></div></div></div>"
        if let current = progress.currentValueLabel {
            out += "<div class=\"wh-gauge-label\">"
            write(current, labels)
            out += "</div>"
        }
        out += "</div>"
    }
}

import Foundation
