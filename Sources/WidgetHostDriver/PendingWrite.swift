import WidgetHostCore

/// The write that covers several core steps handled in one `HostDriver.batch`: every widget
/// and Live Activity any of them changed (the records are read from the host when the write
/// is made, so each is written once, as the last step left it), every one removed, and
/// whether the host-wide records changed. A record removed by a later step is only removed.
/// A batch of one step writes that step's scope as it came.
struct PendingWrite {
    private var first: PersistScope?
    private var merged: Merged?

    var isEmpty: Bool { first == nil }

    mutating func add(_ scope: PersistScope) {
        guard let first else {
            first = scope
            return
        }
        if merged == nil { merged = Merged(first) }
        merged!.add(scope)
    }

    /// The scope of one write for everything added, and empty again; nil when nothing was.
    mutating func take() -> PersistScope? {
        defer { self = PendingWrite() }
        return merged?.scope ?? first
    }

    private struct Merged {
        var changed: [WidgetID] = []
        var changedSet: Set<WidgetID> = []
        var removed: Set<WidgetID> = []
        var host = false
        var activitiesChanged: [String] = []
        var activitiesRemoved: Set<String> = []
        var activityHost = false

        init(_ scope: PersistScope) { add(scope) }

        mutating func add(_ scope: PersistScope) {
            for id in scope.changed where changedSet.insert(id).inserted { changed.append(id) }
            removed.formUnion(scope.removed)
            host = host || scope.host
            activitiesChanged += scope.activities.changed
            activitiesRemoved.formUnion(scope.activities.removed)
            activityHost = activityHost || scope.activities.host
        }

        var scope: PersistScope {
            var activitiesSeen: Set<String> = []
            return PersistScope(
                changed: changed.filter { !removed.contains($0) }.sorted(),
                removed: removed.sorted(),
                host: host,
                activities: ActivityPersistScope(
                    changed: activitiesChanged.filter {
                        !activitiesRemoved.contains($0) && activitiesSeen.insert($0).inserted
                    },
                    removed: activitiesRemoved.sorted(), host: activityHost))
        }
    }
}
