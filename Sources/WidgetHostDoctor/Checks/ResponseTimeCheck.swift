import Foundation
import WidgetHostProtocol
import WidgetHostRunner

/// `placeholder/get` within 1 s, `snapshot/get` and `timeline/get` within 5 s — with margin,
/// because a phone is slower than the machine the doctor runs on. The time is measured from
/// starting the process (a cold start) to the reply, and reported.
enum ResponseTimeCheck {
    static func title(_ method: ExtensionMethod, deadline: TimeInterval) -> String {
        switch method {
        case .placeholder: "placeholder answers within \(Figures.interval(deadline)), with margin"
        case .snapshot: "snapshot answers within \(Figures.interval(deadline)), with margin"
        default: "timeline answers within \(Figures.interval(deadline)), with margin"
        }
    }

    static func check(_ method: ExtensionMethod) -> CheckID {
        switch method {
        case .placeholder: .placeholderTime
        case .snapshot: .snapshotTime
        default: .timelineTime
        }
    }

    static func finding(_ method: ExtensionMethod, run: Caller.Run, widget: WidgetUnderTest) -> Finding {
        let limits = widget.limits
        let outcome = run.outcome
        let deadline = limits.timeout(for: method)
        let title = title(method, deadline: deadline)
        func finding(_ verdict: Finding.Verdict, _ detail: String, fix: String? = nil) -> Finding {
            Finding(
                check(method), verdict, title: title, detail: detail, fix: fix, kind: widget.kind,
                family: widget.family, seconds: outcome.seconds)
        }
        if case .failure(let failure) = outcome.result {
            let (detail, fix) = Explain.failure(
                failure, method: method, limits: limits, stderrTail: outcome.stderrTail, executable: widget.executable)
            return finding(.fail, detail, fix: fix)
        }
        let measured = "answered in \(Figures.duration(outcome.seconds)) (limit \(Figures.interval(deadline)))"
        // A reply that beat the deadline event but came after it: the host's own rule says late.
        if limits.host.limits.verdict(on: method, elapsed: outcome.seconds, footprintBytes: nil) != nil {
            return finding(
                .fail, "answered in \(Figures.duration(outcome.seconds)), after the \(Figures.interval(deadline)) deadline",
                fix: slowFix(method))
        }
        if outcome.seconds <= deadline * limits.timeMargin { return finding(.pass, measured) }
        return finding(
            .warn,
            "answered in \(Figures.duration(outcome.seconds)), more than \(Int(limits.timeMargin * 100))% of "
                + "the \(Figures.interval(deadline)) deadline; a phone is slower than this machine",
            fix: slowFix(method))
    }

    private static func slowFix(_ method: ExtensionMethod) -> String {
        switch method {
        case .placeholder:
            "Return fixed sample content from placeholder(in:) at once: no files, network or database"
        case .snapshot:
            "Return sample content when context.isPreview, and otherwise only read what the app already prepared"
        default:
            "Move the work into the app: let it write what the widget shows into the app group, and only read it "
                + "in getTimeline"
        }
    }
}
