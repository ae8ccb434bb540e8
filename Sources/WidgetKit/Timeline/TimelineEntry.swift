/// One moment of a widget's timeline: the date it becomes current and whatever the
/// widget shows then (the conforming type's other properties).
///
/// `Sendable` because entries cross from the provider's thread (or actor) to the thread
/// that writes the reply.
public protocol TimelineEntry: Sendable {
    var date: Date { get }
    /// How relevant this entry is, for Smart Stacks. Most widgets leave it `nil`.
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    public var relevance: TimelineEntryRelevance? { nil }
}
