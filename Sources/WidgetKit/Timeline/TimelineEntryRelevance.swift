import WidgetHostProtocol

/// How relevant an entry is compared with the widget's other entries, and for how long.
public struct TimelineEntryRelevance: Sendable, Hashable, Codable {
    /// Any non-negative value; only its size relative to other scores matters.
    public let score: Float
    /// Seconds from the entry's date during which the score holds; 0 means until the next entry.
    public let duration: TimeInterval

    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }

    /// The wire form: a zero duration ("until the next entry") is simply left out.
    var payload: EntryRelevance {
        EntryRelevance(score: Double(score), duration: duration > 0 ? duration : nil)
    }
}
