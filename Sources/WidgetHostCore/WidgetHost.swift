import Foundation
import OrderedCollections
import WidgetHostProtocol

/// The host's rules as a deterministic state machine, in the manner of quinn-proto's
/// `Connection`: it is told what happened and what time it is, and answers with effects.
/// It never reads a clock, a file, a socket or a process. The daemon feeds it the wall
/// clock; the harness a virtual one.
public struct WidgetHost: Sendable {
    public let configuration: HostConfiguration
    public internal(set) var catalog = Catalog()
    public internal(set) var host = HostRecord()
    /// Live Activities (`Activities/`).
    public internal(set) var activities = ActivityBook()

    var records: OrderedDictionary<WidgetID, WidgetRecord> = [:]
    var queues: [String: ExtensionQueue] = [:]
    var requestOwners: [RequestID: String] = [:]
    var nextRequestNumber = 1
    var deadlines = DeadlineQueue()
    var step = StepCollector()
    /// Control widgets by extension and kind, and what their providers last said.
    var controls: [ControlKey: ControlState] = [:]
    /// Requests whose answer a client waits for (`.answerLater`), and what to do with it.
    var clientWaits: [RequestID: ClientWait] = [:]
    /// Live Activities whose views are being drawn (`Activities/WidgetHost+ActivityViews.swift`).
    var activityRenders: [String: ActivityRenderState] = [:]

    public init(configuration: HostConfiguration = .default) {
        self.configuration = configuration
    }

    /// Rebuilds the host from persisted state. Reloads that were running when the previous
    /// process stopped were already charged; they run again, uncharged, once the host starts.
    public init(
        configuration: HostConfiguration = .default, restoring host: HostRecord, widgets: [WidgetRecord],
        activities: ActivityBook = ActivityBook()
    ) {
        self.configuration = configuration
        self.host = host
        self.activities = activities
        for id in activities.records.keys { scheduleActivityDeadline(id) }
        // The store hands them over sorted; copying 10,000 records to sort them again would
        // double the restored host's peak footprint.
        let widgets = widgets.isSortedByID ? widgets : widgets.sorted { $0.id < $1.id }
        records.reserveCapacity(widgets.count)
        var names = Set<String>()
        for var record in widgets {
            record.shareStorage(names: &names)
            if let running = record.running {
                var retry = PendingReload(
                    requestedAt: running.requestedAt, cause: running.cause, exemption: running.exemption, prepaid: true)
                if let pending = record.pending { retry.requestedAt = min(retry.requestedAt, pending.requestedAt) }
                record.pending = retry
                record.running = nil
            }
            // An intent that ran when the host stopped is gone with its process; a toggle shows its old state.
            record.interaction = nil
            records[record.id] = record
        }
    }

    // MARK: - Drains

    /// The earliest moment the host needs `handle(.deadlineReached, at:)`; nil when nothing is scheduled.
    public var nextDeadline: Date? { deadlines.next }

    // MARK: - Getters

    public var widgets: [WidgetInfo] { records.values.map(\.info) }

    /// How many widgets there are, without building `widgets` (the daemon's STATUS line asks after every step).
    public var widgetCount: Int { records.count }

    public func record(of id: WidgetID) -> WidgetRecord? { records[id] }

    public var allRecords: [WidgetRecord] { Array(records.values) }

    /// `getCurrentConfigurations`: the instances of one app, or all of them.
    public func currentConfigurations(app: String? = nil) -> [WidgetInfo] {
        widgets.filter { app == nil || $0.app == app }
    }

    public func budget(of id: WidgetID, at now: Date) -> BudgetStatus? {
        records[id].map { budgetStatus(of: $0, at: now) }
    }

    // MARK: - Handlers

    /// Feeds one event to the host at `now` and returns the reply (for commands) and the
    /// effects to execute, in order. Any deadline that has passed is handled first.
    public mutating func handle(_ event: HostEvent, at now: Date) -> HostStep {
        step = StepCollector.start()
        handleDeadlines(at: now)
        let reply: HostReply?
        switch event {
        case .deadlineReached: reply = nil
        case .hostStarted(let bootID): reply = nil; hostStarted(bootID: bootID, at: now)
        case .catalogChanged(let descriptors): reply = nil; catalogChanged(descriptors, at: now)
        case .significantTimeChange: reply = nil; significantTimeChange(at: now)
        case .widgetAdded(let request): reply = addWidget(request, at: now)
        case .widgetRemoved(let id): reply = removeWidget(id, at: now)
        case .reloadRequested(let request): reply = reloadTimelines(request, at: now)
        case .viewRecorded(let id): reply = recordView(id, at: now)
        case .snapshotRequested(let id, let isPreview): reply = requestSnapshot(id, isPreview: isPreview, at: now)
        case .widgetConfigured(let id, let values): reply = configureWidget(id, values, at: now)
        case .optionsRequested(let kind, let parameter, let app):
            reply = requestOptions(kind: kind, parameter: parameter, app: app, at: now)
        case .tapped(let request): reply = tap(request, at: now)
        case .controlTapped(let kind, let app): reply = tapControl(kind: kind, app: app, at: now)
        case .controlsReloadRequested(let kind, let app): reply = reloadControls(kind: kind, app: app, at: now)
        case .deviceChanged(let settings): reply = changeDevice(settings, at: now)
        case .extensionReplied(let id, let reply_, let footprint):
            reply = nil
            extensionReplied(id, reply_, footprintBytes: footprint, at: now)
        case .extensionFailed(let id, let failure): reply = nil; failInFlight(id, failure, at: now)
        case .footprintSampled(let id, let bytes): reply = nil; footprintSampled(id, bytes: bytes, at: now)
        case .activity(let command): reply = .activity(handleActivity(command, at: now))
        }
        drawChangedActivities(at: now)
        return HostStep(reply: reply, effects: step.finish())
    }

    private mutating func handleDeadlines(at now: Date) {
        // Handling a deadline can schedule another at `now` (a deferral that ends right away);
        // keep going until nothing is due.
        var due = deadlines.popDue(at: now)
        while !due.isEmpty {
            for owner in due {
                switch owner {
                case .widget(let id): advance(id, at: now)
                case .extension(let ext): extensionDeadline(ext, at: now)
                case .activity(let id): activityDeadline(id, at: now)
                }
            }
            due = deadlines.popDue(at: now)
        }
    }
}

/// Collects one step's effects and what it changed, then appends a single `persist`.
struct StepCollector: Sendable {
    var effects: [HostEffect] = []
    var changed = WidgetIDList()
    var removed = WidgetIDList()
    var hostChanged = false
    var activitiesChanged: Set<String> = []
    var activitiesRemoved: Set<String> = []
    var activityHostChanged = false
    /// Activities whose views must be drawn again (started, updated, stale, ended).
    var activitiesToDraw: Set<String> = []

    /// A step usually emits a few notices and a send; room for them up front saves the
    /// array's regrowth (1, 2, 4, 8) on every step.
    static func start() -> StepCollector {
        var step = StepCollector()
        step.effects.reserveCapacity(8)
        return step
    }

    mutating func finish() -> [HostEffect] {
        let activities =
            activitiesChanged.isEmpty && activitiesRemoved.isEmpty
            ? ActivityPersistScope(changed: [], removed: [], host: activityHostChanged)
            : ActivityPersistScope(
                changed: activitiesChanged.subtracting(activitiesRemoved).sorted(by: ActivityBook.order),
                removed: activitiesRemoved.sorted(by: ActivityBook.order), host: activityHostChanged)
        if !changed.isEmpty || !removed.isEmpty || hostChanged || !activities.isEmpty {
            let removed = removed.sorted()
            effects.append(
                .persist(
                    PersistScope(
                        changed: changed.sorted(excluding: removed), removed: removed, host: hostChanged,
                        activities: activities)))
        }
        return effects
    }
}

/// The widgets a step touched: appended as they come (a step names the same few widgets
/// many times), sorted and made unique once at the end. Cheaper than a `Set`, which hashes
/// every insert and allocates for each step.
struct WidgetIDList: Sendable {
    private var ids: [WidgetID] = []

    var isEmpty: Bool { ids.isEmpty }

    mutating func insert(_ id: WidgetID) {
        if ids.last != id { ids.append(id) }
    }

    /// Ascending, each once.
    func sorted() -> [WidgetID] { sorted(excluding: []) }

    /// Ascending, each once, leaving out `excluded` (ascending).
    func sorted(excluding excluded: [WidgetID]) -> [WidgetID] {
        let excludedSet = Set(excluded)
        var result: [WidgetID] = []
        result.reserveCapacity(ids.count)
        for id in ids.count > 1 ? ids.sorted() : ids where result.last != id {
            if excluded.isEmpty || !excludedSet.contains(id) { result.append(id) }
        }
        return result
    }
}
