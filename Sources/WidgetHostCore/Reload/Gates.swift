import Foundation
import WidgetHostProtocol

/// The order of gates for a reload: failure backoff, then the minimum interval since the
/// last budgeted reload started, then the budget window; it starts at the latest of the
/// three. Exempt and prepaid reloads pass only the backoff gate (and an exempt reload does
/// not start the minimum interval: a background reload right after the widget was added,
/// or after the app was in the foreground, is not held back by it).
public enum Gates {
    public struct Decision: Sendable, Hashable {
        public var earliest: Date
        /// The gate that set `earliest`, when it is later than now.
        public var reason: DeferralReason?
    }

    public static func decide(
        budgeted: Bool, backoff: Backoff, ledger: [Date], budgetLimit: Int,
        rules: HostConfiguration, at now: Date
    ) -> Decision {
        var decision = Decision(earliest: now, reason: nil)
        func consider(_ time: Date, _ reason: DeferralReason) {
            // Strictly later: on a tie the earlier gate in the order is the one reported.
            if time > decision.earliest { decision = Decision(earliest: time, reason: reason) }
        }
        consider(backoff.earliestStart(after: now), .backoff)
        guard budgeted else { return decision }
        if let lastBudgeted = ledger.max() {
            consider(lastBudgeted + rules.policy.minReloadInterval, .minInterval)
        }
        consider(
            SlidingWindowBudget.nextFreeSlot(ledger, limit: budgetLimit, window: rules.budget.window, at: now),
            .budgetExhausted)
        return decision
    }
}
