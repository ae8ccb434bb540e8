import Foundation

extension SimulationResult {
    /// One lane per widget across the simulated period: reload starts as ticks (blue budgeted,
    /// green exempt), deferral spans shaded, the first budget exhaustion marked in red, an hour grid.
    public func svg(timeZone: TimeZone) -> String {
        let labelWidth = 260.0
        let plotWidth = 1200.0
        let laneHeight = 22.0
        let top = 40.0
        let duration = max(1, scenario.end.timeIntervalSince(scenario.start))
        let lanes = widgets.count + activities.count
        let height = top + Double(lanes) * laneHeight + 50
        let width = labelWidth + plotWidth + 20
        func x(_ date: Date) -> Double {
            labelWidth + plotWidth * min(1, max(0, date.timeIntervalSince(scenario.start) / duration))
        }
        func number(_ value: Double) -> String { String(format: "%.2f", value) }
        let clock = ReportClock(start: scenario.start, end: scenario.end, timeZone: timeZone)

        var out: [String] = []
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        out.append(
            "<svg xmlns='http://www.w3.org/2000/svg' width='\(number(width))' height='\(number(height))' "
                + "viewBox='0 0 \(number(width)) \(number(height))' font-family='sans-serif' font-size='11'>")
        out.append("<title>\(escape(scenario.file)): \(widgets.count) widgets</title>")
        out.append("<rect x='0' y='0' width='\(number(width))' height='\(number(height))' fill='#ffffff'/>")

        // The hour grid, with labels spaced so they never crowd.
        let hours = Int((duration / 3600).rounded(.up))
        let labelEvery = hours <= 24 ? 1 : hours <= 72 ? 6 : 24
        out.append("<g class='grid'>")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let firstHour = calendar.dateInterval(of: .hour, for: scenario.start)?.start ?? scenario.start
        var hour = firstHour
        var index = 0
        while hour <= scenario.end {
            if hour >= scenario.start {
                let isMidnight = calendar.component(.hour, from: hour) == 0
                let gx = number(x(hour))
                out.append(
                    "<line x1='\(gx)' y1='\(number(top - 6))' x2='\(gx)' y2='\(number(top + Double(lanes) * laneHeight))' "
                        + "stroke='\(isMidnight ? "#999999" : "#e4e4e4")' stroke-width='1'/>")
                if index % labelEvery == 0 {
                    out.append(
                        "<text x='\(gx)' y='\(number(top - 10))' text-anchor='middle' fill='#555555'>\(escape(clock.format(hour)))</text>")
                }
                index += 1
            }
            hour += 3600
        }
        out.append("</g>")

        for (row, widget) in widgets.enumerated() {
            let y = top + Double(row) * laneHeight
            out.append("<g class='lane' data-widget='\(escape(widget.id))'>")
            out.append(
                "<rect x='\(number(labelWidth))' y='\(number(y + 2))' width='\(number(plotWidth))' height='\(number(laneHeight - 4))' fill='\(row % 2 == 0 ? "#f6f8fa" : "#ffffff")'/>")
            let label = "\(widget.id) \(widget.kind) (B \(widget.budget))"
            out.append("<text x='6' y='\(number(y + laneHeight / 2 + 4))' fill='#222222'>\(escape(label))</text>")
            for span in widget.deferrals {
                let from = x(span.from)
                let to = max(from + 1, x(span.until))
                out.append(
                    "<rect class='deferral' x='\(number(from))' y='\(number(y + 3))' width='\(number(to - from))' height='\(number(laneHeight - 6))' fill='#f0883e' fill-opacity='0.35'><title>deferred (\(span.reason.rawValue)) \(escape(clock.format(span.from)))–\(escape(clock.format(span.until)))</title></rect>")
            }
            for tick in widget.reloads {
                let tx = number(x(tick.at))
                out.append(
                    "<line class='\(tick.budgeted ? "budgeted" : "exempt")' x1='\(tx)' y1='\(number(y + 4))' x2='\(tx)' y2='\(number(y + laneHeight - 4))' stroke='\(tick.budgeted ? "#1f6feb" : "#2da44e")' stroke-width='1.5'/>")
            }
            if let exhausted = widget.exhaustedAt {
                let ex = x(exhausted)
                out.append(
                    "<path class='exhausted' d='M\(number(ex - 5)) \(number(y + 1)) L\(number(ex + 5)) \(number(y + 1)) L\(number(ex)) \(number(y + 9)) Z' fill='#cf222e'><title>budget exhausted at \(escape(clock.format(exhausted)))</title></path>")
                out.append(
                    "<line x1='\(number(ex))' y1='\(number(y + 2))' x2='\(number(ex))' y2='\(number(y + laneHeight - 2))' stroke='#cf222e' stroke-width='1' stroke-dasharray='2,2'/>")
            }
            out.append("</g>")
        }

        for (offset, activity) in activities.enumerated() {
            let row = widgets.count + offset
            let y = top + Double(row) * laneHeight
            out.append("<g class='lane activity' data-activity='\(escape(activity.id))'>")
            out.append(
                "<rect x='\(number(labelWidth))' y='\(number(y + 2))' width='\(number(plotWidth))' height='\(number(laneHeight - 4))' fill='\(row % 2 == 0 ? "#f6f8fa" : "#ffffff")'/>")
            let label = "\(activity.id) \(activity.attributesType) (\(activity.pushBudget) pushes/h)"
            out.append("<text x='6' y='\(number(y + laneHeight / 2 + 4))' fill='#222222'>\(escape(label))</text>")
            for span in activity.stale {
                let from = x(span.from)
                out.append(
                    "<rect class='stale' x='\(number(from))' y='\(number(y + 3))' width='\(number(max(1, x(span.until) - from)))' height='\(number(laneHeight - 6))' fill='#d4a72c' fill-opacity='0.35'><title>stale \(escape(clock.format(span.from)))–\(escape(clock.format(span.until)))</title></rect>")
            }
            for span in activity.behind {
                let from = x(span.from)
                out.append(
                    "<rect class='behind' x='\(number(from))' y='\(number(y + 3))' width='\(number(max(1, x(span.until) - from)))' height='\(number(laneHeight - 6))' fill='#cf222e' fill-opacity='0.25'><title>pushes dropped, content behind \(escape(clock.format(span.from)))–\(escape(clock.format(span.until)))</title></rect>")
            }
            for tick in activity.ticks {
                let tx = number(x(tick.at))
                let color = tick.source == .push10 ? "#1f6feb" : tick.source == .push5 ? "#8250df" : "#2da44e"
                out.append(
                    "<line class='\(tick.source.rawValue)' x1='\(tx)' y1='\(number(y + 4))' x2='\(tx)' y2='\(number(y + laneHeight - 4))' stroke='\(color)' stroke-width='1.5'/>")
            }
            if let exhausted = activity.exhaustedAt {
                let ex = x(exhausted)
                out.append(
                    "<path class='exhausted' d='M\(number(ex - 5)) \(number(y + 1)) L\(number(ex + 5)) \(number(y + 1)) L\(number(ex)) \(number(y + 9)) Z' fill='#cf222e'><title>push budget exhausted at \(escape(clock.format(exhausted)))</title></path>")
            }
            out.append("</g>")
        }

        let legendY = top + Double(lanes) * laneHeight + 28
        var legend: [(String, String)] = [
            ("#1f6feb", "budgeted reload"), ("#2da44e", "exempt reload"), ("#f0883e", "deferred"),
            ("#cf222e", "budget exhausted"),
        ]
        if !activities.isEmpty {
            legend = [
                ("#1f6feb", "budgeted reload / priority-10 push"), ("#2da44e", "exempt reload / app update"),
                ("#8250df", "priority-5 push"), ("#f0883e", "deferred"), ("#cf222e", "budget exhausted / behind"),
                ("#d4a72c", "stale"),
            ]
        }
        out.append("<g class='legend'>")
        for (position, item) in legend.enumerated() {
            let lx = labelWidth + Double(position) * (activities.isEmpty ? 170 : 200)
            out.append("<rect x='\(number(lx))' y='\(number(legendY - 9))' width='12' height='12' fill='\(item.0)'/>")
            out.append("<text x='\(number(lx + 18))' y='\(number(legendY + 1))' fill='#222222'>\(item.1)</text>")
        }
        out.append("</g>")
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    private func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
