/// The entries a provider returns for a widget and when the host should ask again.
public struct Timeline<EntryType: TimelineEntry>: Sendable {
    public let entries: [EntryType]
    public let policy: TimelineReloadPolicy

    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}
