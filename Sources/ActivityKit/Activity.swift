import Foundation
import Synchronization
import WidgetHostProtocol

/// ActivityKit's `Activity`: one Live Activity of `Attributes`, hosted by widgethostd.
///
/// ```swift
/// let activity = try Activity.request(
///     attributes: PizzaDeliveryAttributes(orderNumber: "12345", pizzaType: "Pepperoni"),
///     content: ActivityContent(state: initialState, staleDate: nil),
///     pushType: .token)
/// await activity.update(ActivityContent(state: onTheWay, staleDate: nil))
/// await activity.end(nil, dismissalPolicy: .default)
/// ```
///
/// As on a device, `update` and `end` neither throw nor wait for the views; a refusal (an
/// ended activity, a state over 4 KB) is one line on stderr. Unlike a device, the host's
/// story of every activity is in `widgethost activity ID`.
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
    public typealias ActivityStateUpdates = AsyncMapSequence<AsyncStream<ActivityStateName>, ActivityState>
    public typealias ContentUpdates = AsyncCompactMapSequence<
        AsyncStream<ActivityContentPayload>, ActivityContent<Attributes.ContentState>
    >
    public typealias PushTokenUpdates = AsyncStream<Data>

    private struct Snapshot {
        var content: ActivityContent<Attributes.ContentState>
        var state: ActivityState
        var pushToken: Data?
    }

    public let id: String
    public let attributes: Attributes
    private let lock = NSLock()
    private var current: Snapshot
    private let host: ActivityHost

    init(info: ActivityInfo, attributes: Attributes, content: ActivityContent<Attributes.ContentState>, host: ActivityHost) {
        self.id = info.id
        self.attributes = attributes
        self.host = host
        self.current = Snapshot(
            content: content, state: ActivityState(info.state), pushToken: info.pushToken.flatMap(Data.init(hex:)))
    }

    /// The `ActivityAttributes` type's name, as the host and pushes know it (`attributes-type`).
    public static var attributesType: String { String(describing: Attributes.self) }

    public var content: ActivityContent<Attributes.ContentState> { lock.withLock { current.content } }
    public var activityState: ActivityState { lock.withLock { current.state } }
    public var pushToken: Data? { lock.withLock { current.pushToken } }

    // MARK: - Starting

    /// Starts a Live Activity. Throws `ActivityAuthorizationError` with Apple's names:
    /// `attributesTooLarge` (over 4 KB), `targetMaximumExceeded` (too many at once), `denied`.
    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        let host = ActivityHost.shared
        do {
            let params = ActivityRequestParams(
                app: try host.requireApp(), attributesType: attributesType, attributes: try JSONValue(encoding: attributes),
                content: try payload(content), pushType: pushType?.name)
            let info: ActivityInfo = try host.call(.activityRequest, params)
            return Activity(info: info, attributes: attributes, content: content, host: host)
        } catch {
            throw ActivityHost.error(error)
        }
    }

    /// The app's ongoing and ended activities of this type.
    public static var activities: [Activity<Attributes>] {
        let host = ActivityHost.shared
        guard let list = try? host.list(app: host.appIdentifier) else { return [] }
        return list.activities.filter { $0.attributesType == attributesType && $0.state != .dismissed }.compactMap {
            info in
            guard let attributes = try? info.attributes.decode(as: Attributes.self),
                let content = try? Self.content(info.content)
            else { return nil }
            return Activity(info: info, attributes: attributes, content: content, host: host)
        }
    }

    /// The token a server sends `event: start` pushes to (push-to-start).
    public static var pushToStartToken: Data? {
        let host = ActivityHost.shared
        guard let app = host.appIdentifier,
            let result: PushTokenResult = try? host.call(
                .activityPushToStartToken, PushToStartTokenParams(app: app, attributesType: attributesType))
        else { return nil }
        return Data(hex: result.token)
    }

    public static var pushToStartTokenUpdates: PushTokenUpdates {
        AsyncStream { continuation in
            if let token = pushToStartToken { continuation.yield(token) }
            continuation.finish()
        }
    }

    // MARK: - Updating and ending

    public func update(_ content: ActivityContent<Attributes.ContentState>) async {
        await update(content, alertConfiguration: nil)
    }

    public func update(_ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration?) async {
        let alert = alertConfiguration.map {
            ActivityAlertPayload(title: $0.title.description, body: $0.body.description, sound: $0.sound.name)
        }
        perform("update") {
            ActivityUpdateParams(id: id, app: host.appIdentifier, content: try payloadOf(content), alert: alert)
        } method: { .activityUpdate }
    }

    public func end(_ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        let policy: ActivityDismissalPolicyPayload
        switch dismissalPolicy.kind {
        case .default: policy = .default
        case .immediate: policy = .immediate
        case .after(let date): policy = .after(date)
        }
        perform("end") {
            ActivityEndParams(
                id: id, app: host.appIdentifier, content: try content.map { try self.payloadOf($0) }, dismissalPolicy: policy)
        } method: { .activityEnd }
    }

    private func perform<Params: Encodable>(_ name: String, _ params: () throws -> Params, method: () -> ControlMethod) {
        do {
            let info: ActivityInfo = try host.call(method(), try params())
            apply(info)
        } catch {
            FileHandle.standardError.write(Data("Activity \(id): \(name) failed: \(ActivityHost.error(error))\n".utf8))
        }
    }

    private func apply(_ info: ActivityInfo) {
        let content = contentOf(info.content)
        lock.withLock {
            if let content { current.content = content }
            current.state = ActivityState(info.state)
            current.pushToken = info.pushToken.flatMap(Data.init(hex:))
        }
    }

    // MARK: - Sequences

    /// The activity's state each time it changes (`.stale`, `.ended`, `.dismissed`); ends after `.dismissed`.
    public var activityStateUpdates: ActivityStateUpdates {
        host.stateChanges(id, from: snapshotStateName).map { ActivityState($0) }
    }

    /// The content each time an update (from the app or a push) arrives; ends with the activity.
    public var contentUpdates: ContentUpdates {
        host.contentChanges(id).compactMap { [self] payload in contentOf(payload) }
    }

    private var snapshotStateName: ActivityStateName {
        switch activityState {
        case .active, .pending: .active
        case .stale: .stale
        case .ended: .ended
        case .dismissed: .dismissed
        }
    }

    /// The activity's push token (requested with `pushType: .token`); the host never rotates it.
    public var pushTokenUpdates: PushTokenUpdates {
        AsyncStream { continuation in
            if let token = pushToken { continuation.yield(token) }
            continuation.finish()
        }
    }

    // MARK: - JSON

    private func payloadOf(_ content: ActivityContent<Attributes.ContentState>) throws -> ActivityContentPayload {
        try Self.payload(content)
    }

    private func contentOf(_ payload: ActivityContentPayload) -> ActivityContent<Attributes.ContentState>? {
        try? Self.content(payload)
    }

    public static func payload(_ content: ActivityContent<Attributes.ContentState>) throws -> ActivityContentPayload {
        ActivityContentPayload(
            state: try JSONValue(encoding: content.state), staleDate: content.staleDate,
            relevanceScore: content.relevanceScore == 0 ? nil : content.relevanceScore)
    }

    public static func content(_ payload: ActivityContentPayload) throws -> ActivityContent<Attributes.ContentState> {
        ActivityContent(
            state: try payload.state.decode(as: Attributes.ContentState.self), staleDate: payload.staleDate,
            relevanceScore: payload.relevanceScore ?? 0)
    }
}

extension ActivityState {
    init(_ name: ActivityStateName) {
        switch name {
        case .active: self = .active
        case .stale: self = .stale
        case .ended: self = .ended
        case .dismissed: self = .dismissed
        }
    }
}

extension Data {
    /// Bytes from hex digits (a push token); nil for anything else.
    init?(hex: String) {
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
