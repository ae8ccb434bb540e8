import Foundation

/// The daily budget B from how often the user looks at the widget:
/// `B = round(min + (max − min) · e)`, `e = min(1, views in the last 24 h / full_engagement_views)`,
/// with `e = 1` during the learning period after the widget was added, and B pinned when configured.
public struct DailyBudget: Sendable, Hashable {
    public var limit: Int
    public var engagement: Double
    public var viewsInWindow: Int
    public var learning: Bool
    public var pinned: Bool

    public init(rules: BudgetRules, pinned: Int?, addedAt: Date, views: [Date], at now: Date) {
        viewsInWindow = views.filter { $0 > now - rules.window && $0 <= now }.count
        learning = now < addedAt + rules.learningPeriod
        if learning {
            engagement = 1
        } else {
            engagement = Swift.min(1, Double(viewsInWindow) / Double(Swift.max(1, rules.fullEngagementViews)))
        }
        if let pinned {
            self.pinned = true
            limit = pinned
        } else {
            self.pinned = false
            limit = Int((Double(rules.min) + Double(rules.max - rules.min) * engagement).rounded())
        }
    }
}
