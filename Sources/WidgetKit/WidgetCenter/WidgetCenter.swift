import AppIntents
import Foundation
import Synchronization
import WidgetHostClient
import WidgetHostProtocol

/// A widget instance as `WidgetCenter.getCurrentConfigurations` reports it: its id, kind,
/// family, app and extension.
public typealias WidgetInfo = WidgetHostProtocol.WidgetInfo

/// What an app uses to tell the widget host that its data changed — Apple's
/// `WidgetCenter`, speaking to widgethostd over its control socket.
///
/// ```swift
/// WidgetCenter.shared.appIdentifier = "com.birthdayreminders"   // or WIDGETHOST_APP
/// WidgetCenter.shared.reloadTimelines(ofKind: "BirthdayHomeWidget")
/// ```
///
/// As on a device, reload calls neither throw nor wait for the extension: a failure is
/// logged as one line on stderr. Unlike a device, the host answers — per widget, `started`,
/// `coalesced` or `deferred` with when and why — and the answer is kept in
/// `lastReloadResult`. Calls block only for the round trip to the daemon.
public final class WidgetCenter: Sendable {
    public static let shared = WidgetCenter()

    public typealias ReloadResult = WidgetHostProtocol.ReloadResult

    /// Why a call could not be made at all (the daemon's own refusals arrive as `ControlClientError`).
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case missingAppIdentifier(call: String)

        public var description: String {
            switch self {
            case .missingAppIdentifier(let call):
                "\(call) needs the calling app's id; set WidgetCenter.shared.appIdentifier or WIDGETHOST_APP"
            }
        }
    }

    private struct State: Sendable {
        var appIdentifier: String?
        var isForeground: Bool
        var socketPath: String
        var timeout: Duration
        var lastReloadResult: Result<ReloadResult, any Error>?
    }

    private let state: Mutex<State>

    /// Reads `WIDGETHOST_APP`, `WIDGETHOST_FOREGROUND` (`1` means foreground) and
    /// `WIDGETHOST_SOCKET` from `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        state = Mutex(
            State(
                appIdentifier: environment["WIDGETHOST_APP"].flatMap { $0.isEmpty ? nil : $0 },
                isForeground: environment["WIDGETHOST_FOREGROUND"] == "1",
                socketPath: ControlSocketPath.resolve(environment: environment),
                timeout: ControlClient.defaultTimeout,
                lastReloadResult: nil))
    }

    /// The calling app's id (`com.birthdayreminders`), the bundle id of its extensions minus
    /// the last component. Defaults to `WIDGETHOST_APP`.
    public var appIdentifier: String? {
        get { state.withLock { $0.appIdentifier } }
        set { state.withLock { $0.appIdentifier = newValue } }
    }

    /// Whether the app is on screen: its reloads are then exempt from the budget, as on a
    /// device. Defaults to `WIDGETHOST_FOREGROUND=1`.
    public var isForeground: Bool {
        get { state.withLock { $0.isForeground } }
        set { state.withLock { $0.isForeground = newValue } }
    }

    /// The daemon's control socket: `WIDGETHOST_SOCKET`, else `/run/widgethost.sock`.
    public var socketPath: String {
        get { state.withLock { $0.socketPath } }
        set { state.withLock { $0.socketPath = newValue } }
    }

    /// How long a call waits for the daemon's answer.
    public var timeout: Duration {
        get { state.withLock { $0.timeout } }
        set { state.withLock { $0.timeout = newValue } }
    }

    /// What the host answered to the last reload call, or why the call failed.
    public var lastReloadResult: Result<ReloadResult, any Error>? {
        state.withLock { $0.lastReloadResult }
    }

    /// Reloads the timelines of every widget of `kind` (`WidgetCenter.shared.reloadTimelines(ofKind:)`).
    /// Budgeted unless `isForeground`. Called from an intent's `perform()` in an extension,
    /// the call goes back to the host in the `intent/perform` reply instead, as the intent's own reloads.
    public func reloadTimelines(ofKind kind: String) {
        if let intentReloads = _IntentReloads.current {
            intentReloads.reloadTimelines(ofKind: kind)
            return
        }
        let settings = state.withLock { $0 }
        let call = "reloadTimelines(ofKind: \"\(kind)\")"
        record(call: call) {
            try Self.call(
                .reloadTimelines,
                params: ReloadTimelinesParams(
                    kind: kind, app: settings.appIdentifier, foreground: settings.isForeground ? true : nil),
                settings: settings)
        }
    }

    /// Reloads the timelines of every widget of the calling app (`reloadAllTimelines()`).
    public func reloadAllTimelines() {
        if let intentReloads = _IntentReloads.current {
            intentReloads.reloadAllTimelines()
            return
        }
        let settings = state.withLock { $0 }
        let call = "reloadAllTimelines()"
        record(call: call) {
            guard let app = settings.appIdentifier else { throw Failure.missingAppIdentifier(call: call) }
            return try Self.call(
                .reloadAllTimelines,
                params: ReloadAllTimelinesParams(app: app, foreground: settings.isForeground ? true : nil),
                settings: settings)
        }
    }

    /// The calling app's widgets that the user has added (all widgets when `appIdentifier`
    /// is nil). The completion runs before this method returns, on the calling thread.
    public func getCurrentConfigurations(_ completion: @escaping (Result<[WidgetInfo], any Error>) -> Void) {
        let settings = state.withLock { $0 }
        completion(Result { try Self.configurations(settings: settings) })
    }

    /// `getCurrentConfigurations` for async code; the blocking socket call runs on its own thread.
    public func currentConfigurations() async throws -> [WidgetInfo] {
        let settings = state.withLock { $0 }
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.configurations(settings: settings) })
            }
        }
    }

    // MARK: - Calls

    private func record(call: String, _ body: () throws -> ReloadResult) {
        let result = Result { try body() }
        if case .failure(let error) = result {
            StandardError.write("WidgetCenter: \(call) failed: \(Self.sentence(for: error))")
        }
        state.withLock { $0.lastReloadResult = result }
    }

    private static func configurations(settings: State) throws -> [WidgetInfo] {
        try call(.getCurrentConfigurations, params: GetCurrentConfigurationsParams(app: settings.appIdentifier), settings: settings)
    }

    private static func call<Result: Decodable>(
        _ method: ControlMethod, params: some Encodable, settings: State
    ) throws -> Result {
        let client = try ControlClient(socketPath: settings.socketPath, timeout: settings.timeout)
        defer { client.close() }
        return try client.call(method, params: params)
    }

    private static func sentence(for error: any Error) -> String {
        guard let error = error as? ControlClientError else { return "\(error)" }
        return error.hint.map { "\(error.description); \($0)" } ?? error.description
    }
}
