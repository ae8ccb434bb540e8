import Foundation
import WidgetHostProtocol

extension DoctorReport {
    /// The report as a pre-ship review checklist: one PASS / WARN / FAIL / SKIP line per
    /// check, grouped by widget kind and family, each with what was found and the fix.
    public var text: String {
        var lines = ["widgethost doctor \(bundle)" + (bundleID.map { "  (\($0))" } ?? "")]
        lines.append("timelines asked for at \(RFC3339.format(now))")
        var group: String?
        for finding in findings {
            let heading = finding.kind.map { kind in "\(kind) · \(finding.family?.rawValue ?? "")" } ?? "Bundle"
            if heading != group {
                lines.append("")
                lines.append(heading)
                group = heading
            }
            lines.append("  \(Self.tag(finding.verdict))  \(finding.title)")
            lines.append("        \(finding.detail)")
            if let fix = finding.fix { lines.append("        fix: \(fix)") }
        }
        lines.append("")
        let counts = "\(summary.pass) pass, \(summary.warn) warn, \(summary.fail) fail"
            + (summary.skipped > 0 ? ", \(summary.skipped) not checked" : "")
        lines.append(
            passed
                ? "Ready to ship: \(counts)" + (summary.warn > 0 ? " (read the WARN lines)" : "")
                : "Not ready to ship: \(counts); fix the FAIL lines")
        lines.append("See every kind and family drawn: widgethost gallery \(bundle) --html gallery.html")
        return lines.joined(separator: "\n") + "\n"
    }

    static func tag(_ verdict: Finding.Verdict) -> String {
        switch verdict {
        case .pass: "PASS"
        case .warn: "WARN"
        case .fail: "FAIL"
        case .skipped: "SKIP"
        }
    }
}
