import Foundation
import WidgetHostProtocol

/// When a timeline's policy makes the widget due (Apple): `.atEnd` at the last entry's date,
/// `.after(d)` at d, `.never` not at all — and never sooner than `minReloadInterval` after
/// the reload that produced the timeline (Apple: "at least about 5 minutes").
public enum ReloadPolicyRule {
    public struct Due: Sendable, Hashable {
        public var at: Date
        /// The policy asked for an earlier time and was held back by the minimum interval.
        public var clamped: Bool
    }

    public static func due(
        policy: TimelinePolicy, entries: [TimelineEntryPayload], reloadStartedAt: Date,
        rules: PolicyRules
    ) -> Due? {
        let requested: Date
        switch policy {
        case .never: return nil
        case .after(let date): requested = date
        case .atEnd:
            guard let last = entries.last?.date else { return nil }
            requested = last
        }
        let floor = reloadStartedAt + rules.minReloadInterval
        return requested < floor ? Due(at: floor, clamped: true) : Due(at: requested, clamped: false)
    }
}
