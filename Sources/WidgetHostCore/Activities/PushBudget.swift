import Foundation
import WidgetHostProtocol

/// The push budgets, as sliding windows like the widget budget: at any moment, the
/// budgeted pushes *delivered* in the last `pushWindow` number at most the limit.
///
/// - Priority 5: never budgeted (Apple: "doesn't count against the budget").
/// - Priority 10: `pushBudget` per activity, `frequentPushBudget` when the app's extension
///   has the frequent-updates entitlement (Apple: a higher budget; the figures are observed/ours).
/// - Push-to-start: `pushToStartBudget` per app, apart from the update budget.
///
/// A device drops a throttled push without a word; the host drops it too (the content stays
/// what it was, as on a device) and answers `throttled until T`, T being when a push at that
/// priority would next be delivered.
public enum PushBudget {
    public static func limit(frequentUpdates: Bool, rules: ActivityRules) -> Int {
        frequentUpdates ? rules.frequentPushBudget : rules.pushBudget
    }

    public static func usage(
        _ ledger: [Date], frequentUpdates: Bool, rules: ActivityRules, at now: Date
    ) -> PushBudgetUsage {
        PushBudgetUsage(
            used: SlidingWindowBudget.used(ledger, window: rules.pushWindow, at: now),
            limit: limit(frequentUpdates: frequentUpdates, rules: rules), frequentUpdates: frequentUpdates)
    }

    /// nil when a push can be delivered now; otherwise when one next could.
    public static func throttledUntil(_ ledger: [Date], limit: Int, rules: ActivityRules, at now: Date) -> Date? {
        let free = SlidingWindowBudget.nextFreeSlot(ledger, limit: limit, window: rules.pushWindow, at: now)
        return free > now ? free : nil
    }
}
