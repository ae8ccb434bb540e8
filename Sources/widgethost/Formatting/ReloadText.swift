import WidgetHostProtocol

/// One reload outcome in words: `started (budgeted, 1 of 70 used)`,
/// `deferred until 12:05:00 (minInterval)`, `coalesced into the pending reload at 12:05:00 (minInterval)`.
enum ReloadText {
    static func describe(_ outcome: WidgetReloadOutcome, time: TimeText) -> String {
        switch outcome.outcome {
        case .started:
            var details = [outcome.budgeted ? "budgeted" : "exempt"]
            if let budget = outcome.budget { details.append("\(budget.used) of \(budget.limit) used") }
            return "started (\(details.joined(separator: ", ")))"
        case .coalesced:
            var text = "coalesced into the pending reload"
            if let until = outcome.until { text += " at \(time(until))" }
            if let reason = outcome.reason { text += " (\(reason.rawValue))" }
            return text
        case .deferred:
            if let until = outcome.until {
                return "deferred until \(time(until)) (\(outcome.reason?.rawValue ?? "unknown reason"))"
            }
            switch outcome.reason {
            case .reloadInProgress?: return "deferred (reloadInProgress: one more reload follows the running one)"
            case .extensionUnavailable?: return "deferred (extensionUnavailable: its extension is not loaded)"
            case let reason?: return "deferred (\(reason.rawValue))"
            case nil: return "deferred"
            }
        }
    }

    static func lines(for result: ReloadResult, time: TimeText) -> String {
        var table = Table()
        for outcome in result.outcomes {
            table.append([outcome.id, outcome.kind, describe(outcome, time: time)])
        }
        return table.rendered
    }
}
