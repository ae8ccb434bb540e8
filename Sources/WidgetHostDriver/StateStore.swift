import WidgetHostCore

/// Where the core's persisted state lives between runs: the host record and every widget
/// record, exactly as the core keeps them (DESIGN.md "State").
///
/// The daemon plugs in `SQLiteStateStore`; the harness and tests plug in
/// `InMemoryStateStore`. Calls block; each `write` is one transaction.
public protocol StateStore: Sendable {
    /// Everything stored, or nil when nothing has been written yet (a fresh state directory).
    func load() throws(StateError) -> PersistedState?

    /// Writes one core step (or the steps of one `HostDriver.batch`) in one transaction: the
    /// host record if it changed (nil: leave it), the records that changed, the ids of removed
    /// widgets, and what changed among Live Activities. Either all of it is stored or, when
    /// this throws, none of it. The driver calls it before any effect of those steps runs.
    func write(
        host: HostRecord?, changed: [WidgetRecord], removed: [WidgetID], activities: ActivityChanges
    ) throws(StateError)
}

/// What one core step changed among Live Activities.
public struct ActivityChanges: Sendable, Hashable {
    /// The shared record (id counter, push-to-start ledgers) if it changed.
    public var host: ActivityHostRecord?
    public var changed: [ActivityRecord]
    public var removed: [String]

    public init(host: ActivityHostRecord? = nil, changed: [ActivityRecord] = [], removed: [String] = []) {
        self.host = host
        self.changed = changed
        self.removed = removed
    }

    public static let none = ActivityChanges()
}

/// What `StateStore.load()` returns: enough for `WidgetHost(configuration:restoring:widgets:)`.
public struct PersistedState: Sendable, Hashable {
    public var host: HostRecord
    /// Sorted by id.
    public var widgets: [WidgetRecord]
    /// Live Activities and what they share.
    public var activities: ActivityBook

    public init(host: HostRecord, widgets: [WidgetRecord], activities: ActivityBook = ActivityBook()) {
        self.host = host
        self.widgets = widgets
        self.activities = activities
    }
}

extension StateStore {
    /// Writes what one core step changed, as its `persist` effect describes, taking the
    /// records from the host after the step.
    public func write(_ scope: PersistScope, from host: WidgetHost) throws(StateError) {
        try write(
            host: scope.host ? host.host : nil,
            changed: scope.changed.compactMap { host.record(of: $0) },
            removed: scope.removed,
            activities: ActivityChanges(
                host: scope.activities.host ? host.activities.host : nil,
                changed: scope.activities.changed.compactMap { host.activities[$0] },
                removed: scope.activities.removed))
    }

    /// A step that changed no Live Activity.
    public func write(host: HostRecord?, changed: [WidgetRecord], removed: [WidgetID]) throws(StateError) {
        try write(host: host, changed: changed, removed: removed, activities: .none)
    }
}
