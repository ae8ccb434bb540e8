import Foundation
import Synchronization
import WidgetHostClient
import WidgetHostProtocol

/// The app side of ActivityKit: widgethostd over its control socket, as `WidgetCenter`
/// speaks to it. The app's id is `WIDGETHOST_APP` (or `ActivityHost.shared.appIdentifier`),
/// the socket `WIDGETHOST_SOCKET`.
public final class ActivityHost: Sendable {
    public static let shared = ActivityHost()

    private struct Settings: Sendable {
        var appIdentifier: String?
        var socketPath: String
        var timeout: Duration
    }

    private let settings: Mutex<Settings>

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        settings = Mutex(
            Settings(
                appIdentifier: environment["WIDGETHOST_APP"].flatMap { $0.isEmpty ? nil : $0 },
                socketPath: ControlSocketPath.resolve(environment: environment), timeout: ControlClient.defaultTimeout))
    }

    /// The calling app's id (`com.example.pizza`); defaults to `WIDGETHOST_APP`.
    public var appIdentifier: String? {
        get { settings.withLock { $0.appIdentifier } }
        set { settings.withLock { $0.appIdentifier = newValue } }
    }

    public var socketPath: String {
        get { settings.withLock { $0.socketPath } }
        set { settings.withLock { $0.socketPath = newValue } }
    }

    func call<Result: Decodable>(_ method: ControlMethod, _ params: some Encodable) throws -> Result {
        let settings = settings.withLock { $0 }
        let client = try ControlClient(socketPath: settings.socketPath, timeout: settings.timeout)
        defer { client.close() }
        return try client.call(method, params: params)
    }

    func requireApp() throws -> String {
        guard let app = appIdentifier else {
            throw ActivityAuthorizationError.persistenceFailure(
                "Activity.request needs the app's id; set ActivityHost.shared.appIdentifier or WIDGETHOST_APP")
        }
        return app
    }

    func list(app: String?) throws -> ActivityListResult {
        try call(.activityList, ActivityListParams(app: app))
    }

    func enabled() -> Bool { (try? list(app: appIdentifier))?.enabled ?? false }
    func frequentPushes() -> Bool { (try? list(app: appIdentifier))?.frequentPushUpdates ?? false }

    /// Waits for the daemon's notices about `id` and hands each the activity as it is now;
    /// stops when `body` returns false, the activity is gone or the daemon closes.
    func follow(_ id: String, _ body: @escaping @Sendable (ActivityInfo) -> Bool) {
        let settings = settings.withLock { $0 }
        Thread.detachNewThread {
            guard let client = try? ControlClient(socketPath: settings.socketPath, timeout: settings.timeout) else {
                return
            }
            defer { client.close() }
            _ = try? client.subscribe { notice in
                guard case .activity(let activity) = notice, activity.activityId == id else { return true }
                guard let detail: ActivityDetailResult = try? self.call(.activityGet, ActivityIDParams(id: id)) else {
                    return false
                }
                return body(detail.activity)
            }
        }
    }

    /// The activity's state each time it changes, from `initial`; finishes once dismissed.
    func stateChanges(_ id: String, from initial: ActivityStateName) -> AsyncStream<ActivityStateName> {
        AsyncStream { continuation in
            let last = Mutex(initial)
            follow(id) { info in
                let changed = last.withLock { previous in
                    defer { previous = info.state }
                    return previous != info.state
                }
                if changed { continuation.yield(info.state) }
                if info.state == .dismissed { continuation.finish() }
                return info.state != .dismissed
            }
        }
    }

    /// The activity's content each time it changes; finishes once the activity ends.
    func contentChanges(_ id: String) -> AsyncStream<ActivityContentPayload> {
        AsyncStream { continuation in
            let last = Mutex<ActivityContentPayload?>(nil)
            follow(id) { info in
                let changed = last.withLock { previous in
                    defer { previous = info.content }
                    return previous != nil && previous != info.content
                }
                if changed { continuation.yield(info.content) }
                if !info.state.isOngoing { continuation.finish() }
                return info.state.isOngoing
            }
        }
    }

    static func error(_ error: any Error) -> ActivityAuthorizationError {
        if case .rpc(let rpc) = error as? ControlClientError {
            return ActivityAuthorizationError(reason: rpc.data?["reason"]?.stringValue, message: rpc.message)
        }
        if let error = error as? ActivityAuthorizationError { return error }
        return .persistenceFailure("\(error)")
    }
}
