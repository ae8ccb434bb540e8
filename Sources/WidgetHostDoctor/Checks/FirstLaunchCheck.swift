import Foundation
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

/// The widget right after install, before the app has written anything: `timeline/get`
/// with empty app group containers must still give a timeline (an empty state), not a
/// crash, an error or no entries — otherwise the widget stays blank until the app runs.
enum FirstLaunchCheck {
    static let title = "timeline works with an empty app group container (first launch)"

    static func finding(_ run: Caller.Run, widget: WidgetUnderTest, sharedWithDataRun: Bool) -> Finding {
        let limits = widget.limits
        let outcome = run.outcome
        let context = "with empty app group containers"
        func finding(_ verdict: Finding.Verdict, _ detail: String, fix: String? = nil) -> Finding {
            Finding(
                .firstLaunch, verdict, title: title, detail: detail, fix: fix, kind: widget.kind, family: widget.family,
                seconds: outcome.seconds)
        }
        let emptyStateFix = "Treat a missing file or an empty container as the empty state: return one entry that "
            + "says so (\"Add your first …\") with a policy, instead of failing"
        switch outcome.result {
        case .failure(let failure):
            let (detail, fix) = Explain.failure(
                failure, method: .timeline, limits: limits, stderrTail: outcome.stderrTail, executable: widget.executable)
            if case .failed(.crashed) = failure { return finding(.fail, "\(context): \(detail)", fix: emptyStateFix) }
            if case .failed(.protocolError) = failure { return finding(.fail, "\(context): \(detail)", fix: emptyStateFix) }
            return finding(.fail, "\(context): \(detail)", fix: fix)
        case .success(let reply):
            guard case .timeline(let timeline, _) = reply else {
                return finding(
                    .fail, "\(context) the reply is not a timeline",
                    fix: "Reply {\"entries\":[…],\"policy\":{…}} whatever the data (docs/protocol.md)")
            }
            if case .rejected(let note) = TimelineValidation.validate(
                timeline, byteCount: 0, limits: limits.host.limits), note.code == "emptyTimeline"
            {
                return finding(
                    .fail, "\(context) it returned no entries; the host rejects that and the widget stays blank",
                    fix: emptyStateFix)
            }
            let shared = sharedWithDataRun ? " (no sample data, so this is the timeline run above)" : ""
            let count = timeline.entries.count
            return finding(
                .pass,
                "\(context): \(count) \(count == 1 ? "entry" : "entries") in \(Figures.duration(outcome.seconds))\(shared)")
        }
    }
}
