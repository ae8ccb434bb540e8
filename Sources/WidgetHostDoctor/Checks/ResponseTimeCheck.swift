import Foundation
import WidgetHostProtocol

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

    /// - Parameter decode: checks the reply's shape; throws a `DecodingError` if it is wrong.
    static func finding(
        _ method: ExtensionMethod, run: Runner.Run, deadline: TimeInterval, widget: WidgetUnderTest,
        decode: (JSONValue) throws -> Void
    ) -> Finding {
        let limits = widget.limits
        let outcome = run.outcome
        let title = title(method, deadline: deadline)
        func finding(_ verdict: Finding.Verdict, _ detail: String, fix: String? = nil) -> Finding {
            Finding(
                check(method), verdict, title: title, detail: detail, fix: fix, kind: widget.kind,
                family: widget.family, seconds: outcome.seconds)
        }
        switch outcome.result {
        case .failure(let failure):
            let (detail, fix) = Explain.failure(
                failure, method: method, deadline: deadline, limits: limits, outcome: outcome,
                executable: widget.executable)
            return finding(.fail, detail, fix: fix)
        case .success(let value):
            do {
                try decode(value)
            } catch {
                return finding(
                    .fail,
                    "answered in \(Figures.duration(outcome.seconds)), but the reply does not match the protocol: "
                        + Decoding.describe(error),
                    fix: method == .timeline
                        ? "Reply {\"entries\":[{\"date\",\"content\"}…],\"policy\":{\"type\":…}} (docs/protocol.md)"
                        : "Reply with one entry {\"date\": RFC 3339, \"content\": …} (docs/protocol.md)")
            }
            let measured = "answered in \(Figures.duration(outcome.seconds)) (limit \(Figures.interval(deadline)))"
            if outcome.seconds <= deadline * limits.timeMargin { return finding(.pass, measured) }
            if outcome.seconds <= deadline {
                return finding(
                    .warn,
                    "answered in \(Figures.duration(outcome.seconds)), more than \(Int(limits.timeMargin * 100))% of "
                        + "the \(Figures.interval(deadline)) deadline; a phone is slower than this machine",
                    fix: slowFix(method))
            }
            return finding(
                .fail, "answered in \(Figures.duration(outcome.seconds)), after the \(Figures.interval(deadline)) deadline",
                fix: slowFix(method))
        }
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
