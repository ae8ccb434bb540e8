import Foundation
import OrderedCollections
import WidgetHostProtocol

/// Everything the host knows about one Live Activity. Persisted as is.
public struct ActivityRecord: Sendable, Hashable, Codable {
    public var id: String
    public var app: String
    public var attributesType: String
    public var attributes: JSONValue
    public var content: ActivityContentPayload
    public var state: ActivityStateName
    public var startedAt: Date
    public var updatedAt: Date
    public var endedAt: Date?
    public var dismissAt: Date?
    public var pushToken: String?
    public var lastAlert: ActivityAlertPayload?
    /// The latest `timestamp` among the updates applied (a push's `aps.timestamp`): an update
    /// or end generated before it is ignored, as ActivityKit ignores it (`PushOrdering`).
    /// nil until an update with a timestamp is applied.
    public var contentTimestamp: Date?
    /// Delivery times of priority-10 pushes still inside the push window.
    public var pushLedger: [Date] = []
    public var history: [ActivityHistoryItem] = []
    /// Its views, as the extension last drew them; nil before the first answer and once dismissed.
    public var views: ActivityViews?

    public init(
        id: String, app: String, attributesType: String, attributes: JSONValue, content: ActivityContentPayload,
        startedAt: Date, pushToken: String?
    ) {
        self.id = id
        self.app = app
        self.attributesType = attributesType
        self.attributes = attributes
        self.content = content
        self.state = .active
        self.startedAt = startedAt
        self.updatedAt = startedAt
        self.pushToken = pushToken
    }
}

/// What the activities share: the id counter and each app's push-to-start ledger.
public struct ActivityHostRecord: Sendable, Hashable, Codable {
    public var nextActivityNumber = 1
    /// App id → delivery times of push-to-start pushes still inside the push window.
    public var pushToStartLedgers: [String: [Date]] = [:]
    public init() {}
}

/// All Live Activities, in id order.
public struct ActivityBook: Sendable, Hashable {
    public internal(set) var host = ActivityHostRecord()
    var records: OrderedDictionary<String, ActivityRecord> = [:]

    public init() {}

    public init(host: ActivityHostRecord, activities: [ActivityRecord]) {
        self.host = host
        for record in activities.sorted(by: { ActivityBook.order($0.id, $1.id) }) { records[record.id] = record }
    }

    public var all: [ActivityRecord] { Array(records.values) }
    public subscript(id: String) -> ActivityRecord? { records[id] }

    func record(withToken token: String) -> ActivityRecord? {
        records.values.first { $0.pushToken == token }
    }

    func ongoing(of app: String) -> [ActivityRecord] {
        records.values.filter { $0.app == app && $0.state.isOngoing }
    }

    /// a2 before a10.
    static func order(_ lhs: String, _ rhs: String) -> Bool {
        WidgetID(lhs) < WidgetID(rhs)
    }
}

/// What one core step changed among activities, for the `persist` effect.
public struct ActivityPersistScope: Sendable, Hashable {
    public var changed: [String]
    public var removed: [String]
    /// The shared record (counter, push-to-start ledgers) changed.
    public var host: Bool

    public init(changed: [String], removed: [String], host: Bool) {
        self.changed = changed
        self.removed = removed
        self.host = host
    }

    public var isEmpty: Bool { changed.isEmpty && removed.isEmpty && !host }
}
