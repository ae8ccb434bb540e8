import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// What the timeline says: entries in date order, a sensible number of them, and a reload
/// policy that fits the 40–70 a day budget. The host's own rules judge it
/// (`TimelineValidation`, `ReloadPolicyRule`); the doctor adds the review thresholds.
enum TimelineContentChecks {
    static func titles(_ limits: DoctorLimits) -> [CheckID: String] {
        [
            .entryOrder: "timeline entries are in chronological order",
            .entryCount: "the timeline has 1 to \(limits.warnEntries) entries",
            .policyInterval: "the reload policy asks for reloads at most every \(Figures.interval(limits.warnInterval))",
        ]
    }

    /// The three lines for a timeline, or "not checked" lines when there is none.
    static func findings(_ timeline: TimelinePayload?, byteCount: Int, now: Date, widget: WidgetUnderTest) -> [Finding] {
        let limits = widget.limits
        let titles = titles(limits)
        func finding(_ check: CheckID, _ verdict: Finding.Verdict, _ detail: String, fix: String? = nil) -> Finding {
            Finding(check, verdict, title: titles[check]!, detail: detail, fix: fix, kind: widget.kind, family: widget.family)
        }
        guard let timeline else {
            return [CheckID.entryOrder, .entryCount, .policyInterval].map {
                finding($0, .skipped, "not checked: timeline/get gave no timeline (see above)")
            }
        }
        let entries = timeline.entries
        var findings: [Finding] = []

        // Order.
        if let index = entries.indices.dropLast().first(where: { entries[$0].date > entries[$0 + 1].date }) {
            findings.append(
                finding(
                    .entryOrder, .fail,
                    "entry \(index + 1) (\(RFC3339.format(entries[index].date))) is later than entry \(index + 2) "
                        + "(\(RFC3339.format(entries[index + 1].date))); the host sorts them (entriesOutOfOrder), but "
                        + "dates out of order usually mean the provider computes them wrongly",
                    fix: "Build the entries in chronological order, e.g. entries.sorted { $0.date < $1.date }"))
        } else {
            findings.append(finding(.entryOrder, .pass, entries.count < 2 ? "one entry" : "\(entries.count) entries in order"))
        }

        // Count and size.
        let verdict = TimelineValidation.validate(timeline, byteCount: byteCount, limits: limits.host.limits)
        var sorted = entries
        switch verdict {
        case .rejected(let note):
            let fix = switch note.code {
            case "emptyTimeline": "Return at least one entry — the current state — from getTimeline"
            case "tooManyEntries": "Cover a shorter span with at most \(limits.warnEntries) entries and reload with .atEnd"
            default: "Put less in each entry's content: what the view shows, not the data behind it"
            }
            findings.append(finding(.entryCount, .fail, "\(note.message) (\(note.code))", fix: fix))
        case .accepted(let accepted, _):
            sorted = accepted
            if accepted.count > limits.warnEntries {
                findings.append(
                    finding(
                        .entryCount, .warn,
                        "\(accepted.count) entries, more than \(limits.warnEntries): each costs memory in the extension "
                            + "and the host, and past \(limits.host.limits.maxEntries) the timeline is rejected",
                        fix: "Cover a shorter span (hours, not days) and let .atEnd ask for the next timeline"))
            } else {
                findings.append(finding(.entryCount, .pass, accepted.count == 1 ? "1 entry" : "\(accepted.count) entries"))
            }
        }

        findings.append(policy(timeline.policy, entries: sorted, now: now, limits: limits, finding: finding))
        return findings
    }

    /// The interval the policy asks for: `.after(d)` − now, or the last entry − now for `.atEnd`.
    private static func policy(
        _ policy: TimelinePolicy, entries: [TimelineEntryPayload], now: Date, limits: DoctorLimits,
        finding: (CheckID, Finding.Verdict, String, String?) -> Finding
    ) -> Finding {
        // The interval the extension asks for, before the host's minimum clamps it.
        var unclamped = limits.host.policy
        unclamped.minReloadInterval = 0
        guard let due = ReloadPolicyRule.due(policy: policy, entries: entries, reloadStartedAt: now, rules: unclamped)
        else {
            if case .atEnd = policy {
                return finding(.policyInterval, .skipped, "not checked: .atEnd with no entries", nil)
            }
            return finding(
                .policyInterval, .pass, "policy .never: reloads only when the app calls WidgetCenter", nil)
        }
        if case .atEnd = policy, entries.count == 1, due.at.timeIntervalSince(now) < limits.failInterval {
            return loneAtEnd(entries[0], now: now, limits: limits, finding: finding)
        }
        return interval(policy, due: due.at, now: now, limits: limits, finding: finding)
    }

    /// `.atEnd` on a timeline of one entry that is already (or almost) shown: the timeline ends
    /// as it starts, so every reload asks for the next at once, and the host grants one each
    /// minimum interval until the budget is gone — a common way to spend it in a few hours.
    private static func loneAtEnd(
        _ entry: TimelineEntryPayload, now: Date, limits: DoctorLimits,
        finding: (CheckID, Finding.Verdict, String, String?) -> Finding
    ) -> Finding {
        let minimum = limits.failInterval
        let budget = limits.host.budget
        let perDay = Int((86_400 / minimum).rounded(.down))
        let spent = [budget.min, budget.max].map { Figures.interval(Double($0) * minimum) }
        return finding(
            .policyInterval, .fail,
            "policy .atEnd on a timeline with a single entry (at \(RFC3339.format(entry.date))): the timeline ends "
                + "as soon as it is shown, so the host reloads it again after every \(Figures.interval(minimum)), the "
                + "minimum interval (≈\(perDay) a day); the \(budget.min)–\(budget.max) a day budget is spent after "
                + "\(spent[0])–\(spent[1]) and the widget then goes stale until reloads age out of the 24-hour window",
            "Return the entries you already know are coming (one per change) with .atEnd, or a single entry with "
                + ".after(the date its data next changes), or .never and have the app call "
                + "WidgetCenter.shared.reloadTimelines(ofKind:) when its data changes")
    }

    private static func interval(
        _ policy: TimelinePolicy, due: Date, now: Date, limits: DoctorLimits,
        finding: (CheckID, Finding.Verdict, String, String?) -> Finding
    ) -> Finding {
        let seconds = due.timeIntervalSince(now)
        let asked: String = switch policy {
        case .atEnd: "policy .atEnd with the last entry at \(RFC3339.format(due))"
        default: "policy \(policy)"
        }
        let budget = limits.host.budget
        let fix = "Ask for reloads \(Figures.interval(limits.warnInterval)) or more apart (.after(now + 15 min) or later, "
            + "or entries that reach further ahead with .atEnd), and have the app call "
            + "WidgetCenter.shared.reloadTimelines(ofKind:) when its data changes"
        if seconds <= 0 {
            return finding(
                .policyInterval, .fail,
                "\(asked) is not after now (\(RFC3339.format(now))); the host reloads again as soon as the "
                    + "\(Figures.interval(limits.failInterval)) minimum allows, all day, and the budget runs out",
                fix)
        }
        let perDay = Int((86_400 / max(seconds, limits.failInterval)).rounded(.down))
        let runsOut = Double(budget.max) * max(seconds, limits.failInterval)
        let rate = "next reload in \(Figures.interval(seconds)) (≈\(Int((86_400 / seconds).rounded(.down))) a day)"
        if seconds < limits.failInterval {
            return finding(
                .policyInterval, .fail,
                "\(asked): \(rate); the host never reloads sooner than \(Figures.interval(limits.failInterval)), and "
                    + "at \(perDay) a day the \(budget.min)–\(budget.max) a day budget runs out after "
                    + "\(Figures.interval(runsOut)); the widget then goes stale",
                fix)
        }
        if seconds < limits.warnInterval {
            return finding(
                .policyInterval, .warn,
                "\(asked): \(rate); the \(budget.min)–\(budget.max) a day budget runs out after "
                    + "\(Figures.interval(runsOut)) and the widget goes stale until reloads age out of the 24-hour window",
                fix)
        }
        return finding(.policyInterval, .pass, "\(asked): \(rate)", nil)
    }
}
