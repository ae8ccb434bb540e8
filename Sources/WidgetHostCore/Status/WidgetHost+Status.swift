import Foundation
import WidgetHostProtocol

/// The answers developers cannot get on a device: budget used of B, next free slot, next
/// reload and why, last outcome, current entry, staleness, diagnostics.
extension WidgetHost {
    public func status(of id: WidgetID? = nil, at now: Date) -> Result<[WidgetStatus], HostError> {
        if let id {
            guard let record = records[id] else { return .failure(.unknownWidget(id)) }
            return .success([status(of: record, at: now)])
        }
        return .success(records.values.map { status(of: $0, at: now) })
    }

    public func timeline(of id: WidgetID, at now: Date) -> Result<TimelineResult, HostError> {
        guard let record = records[id] else { return .failure(.unknownWidget(id)) }
        return .success(
            TimelineResult(
                id: id.rawValue, entries: record.timeline?.entries ?? [], policy: record.timeline?.policy,
                receivedAt: record.timeline?.receivedAt, currentEntry: record.currentEntry(at: now),
                family: record.info.family, placeholder: record.placeholder, previousEntry: record.previousEntry))
    }

    func budgetStatus(of record: WidgetRecord, at now: Date) -> BudgetStatus {
        let daily = record.dailyBudget(configuration, at: now)
        let window = configuration.budget.window
        let ledger = ledgerInWindow(of: record, at: now)
        return BudgetStatus(
            used: ledger.count, limit: daily.limit, engagement: daily.engagement, views: daily.viewsInWindow,
            learning: daily.learning, pinned: daily.pinned, enforced: configuration.budget.enforce, ledger: ledger,
            nextFreeSlot: SlidingWindowBudget.nextFreeSlot(ledger, limit: daily.limit, window: window, at: now))
    }

    /// The two figures of `budgetStatus` that a reload's reply carries.
    func budgetUsage(of record: WidgetRecord, at now: Date) -> BudgetUsage {
        BudgetUsage(
            used: ledgerInWindow(of: record, at: now).count, limit: record.dailyBudget(configuration, at: now).limit)
    }

    private func ledgerInWindow(of record: WidgetRecord, at now: Date) -> [Date] {
        record.ledger.filter { $0 > now - configuration.budget.window && $0 <= now }
    }

    func status(of record: WidgetRecord, at now: Date) -> WidgetStatus {
        let next: NextReload
        var staleSince: Date?
        if let pending = record.pending {
            staleSince = pending.requestedAt
            next = NextReload(
                at: record.running == nil ? (pending.deferredUntil ?? now) : nil, cause: pending.cause.rawValue,
                budgeted: pending.isBudgeted, deferredBy: pending.deferredBy)
        } else if let due = record.policyDue(rules: configuration.policy) {
            if due <= now { staleSince = due }
            next = NextReload(
                at: due, cause: record.timeline == nil ? ReloadCause.retry.rawValue : ReloadCause.policy.rawValue,
                budgeted: configuration.budget.enforce)
        } else {
            next = NextReload(at: nil, cause: "none", budgeted: false)
        }
        if let running = record.running {
            staleSince = min(staleSince ?? running.requestedAt, running.requestedAt)
        }
        return WidgetStatus(
            widget: record.info, addedAt: record.addedAt, budget: budgetStatus(of: record, at: now),
            nextReload: next, reloadRunning: record.running != nil, lastOutcome: record.lastOutcome,
            currentEntry: record.currentEntry(at: now), policy: record.timeline?.policy, staleSince: staleSince,
            staleSeconds: staleSince.map { max(0, now.timeIntervalSince($0)) } ?? 0,
            backoff: BackoffStatus(
                consecutiveFailures: record.backoff.consecutiveFailures, until: record.backoff.until),
            diagnostics: record.diagnostics,
            interaction: record.interaction.map {
                IntentInteraction(
                    intent: $0.intent.displayName, button: $0.button, startedAt: $0.startedAt, toggledTo: $0.toggledTo,
                    endedAt: $0.endedAt)
            })
    }
}
