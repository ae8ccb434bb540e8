import Synchronization
import WidgetHostCore

/// A `StateStore` in memory, for the harness and tests: same contract as the SQLite store
/// (nil until the first write, all of a write or nothing), no files.
public final class InMemoryStateStore: StateStore {
    private struct Contents {
        var host: HostRecord?
        var widgets: [WidgetID: WidgetRecord] = [:]
        var activityHost: ActivityHostRecord?
        var activities: [String: ActivityRecord] = [:]
        var writes = 0
        var failure: StateError?
    }

    private let contents: Mutex<Contents>

    public init(_ initial: PersistedState? = nil) {
        var contents = Contents()
        if let initial {
            contents.host = initial.host
            for record in initial.widgets { contents.widgets[record.id] = record }
            contents.activityHost = initial.activities.host
            for record in initial.activities.all { contents.activities[record.id] = record }
        }
        self.contents = Mutex(contents)
    }

    public func load() throws(StateError) -> PersistedState? {
        contents.withLock { contents in
            if contents.host == nil && contents.widgets.isEmpty && contents.activityHost == nil { return nil }
            return PersistedState(
                host: contents.host ?? HostRecord(),
                widgets: contents.widgets.values.sorted { $0.id < $1.id },
                activities: ActivityBook(
                    host: contents.activityHost ?? ActivityHostRecord(), activities: Array(contents.activities.values)))
        }
    }

    public func write(
        host: HostRecord?, changed: [WidgetRecord], removed: [WidgetID], activities: ActivityChanges
    ) throws(StateError) {
        try contents.withLock { (contents: inout Contents) throws(StateError) in
            if let failure = contents.failure { throw failure }
            if let host { contents.host = host }
            for record in changed { contents.widgets[record.id] = record }
            for id in removed { contents.widgets[id] = nil }
            if let activityHost = activities.host { contents.activityHost = activityHost }
            for record in activities.changed { contents.activities[record.id] = record }
            for id in activities.removed { contents.activities[id] = nil }
            contents.writes += 1
        }
    }

    /// How many writes succeeded (one per core step that changed something).
    public var writeCount: Int { contents.withLock { $0.writes } }

    /// Makes every following write throw `failure` and store nothing; nil to stop.
    public func failWrites(with failure: StateError?) {
        contents.withLock { $0.failure = failure }
    }
}
