import AppIntents
import Foundation
import Synchronization
import WidgetHostClient
import WidgetHostProtocol

/// Apple's `ControlCenter`: an app (or an extension) asks the host to reload its Control
/// widgets, which asks each one's value provider again (`control/value`). Control reloads are
/// not budgeted (docs/rules.md).
///
/// It speaks to widgethostd as `WidgetCenter` does, with `WidgetCenter.shared`'s app id,
/// socket and timeout. Inside an intent's `perform()` the calls are not sent: they are
/// reported with the intent's result, and the host honours them as the intent's reloads.
public final class ControlCenter: Sendable {
    public static let shared = ControlCenter()

    private let center: WidgetCenter
    private let insideExtension: Bool
    private let last = Mutex<Result<ReloadControlsResult, any Error>?>(nil)

    /// `center` gives the app id, socket and timeout. `WIDGETHOST_BUNDLE` in `environment`
    /// means this is an extension's process: a call naming no app is its own app's.
    public init(
        center: WidgetCenter = .shared, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.center = center
        insideExtension = environment["WIDGETHOST_BUNDLE"] != nil
    }

    /// What the host answered to the last call (the kinds whose providers it asked), or why
    /// the call failed; nil after a call made inside an intent.
    public var lastReloadResult: Result<ReloadControlsResult, any Error>? { last.withLock { $0 } }

    /// Reloads every control of `kind`.
    public func reloadControls(ofKind kind: String) {
        if let intent = _IntentReloads.current { return intent.reloadControls(ofKind: kind) }
        send(call: "reloadControls(ofKind: \"\(kind)\")", ControlsParams(kind: kind, app: center.appIdentifier))
    }

    /// Reloads every control of the calling app.
    public func reloadAllControls() {
        if let intent = _IntentReloads.current { return intent.reloadAllControls() }
        let call = "reloadAllControls()"
        guard let app = center.appIdentifier ?? (insideExtension ? nil : "") else {
            return send(call: call, ControlsParams())
        }
        guard !app.isEmpty else {
            return fail(call: call, WidgetCenter.Failure.missingAppIdentifier(call: call))
        }
        send(call: call, ControlsParams(app: app))
    }

    private func send(call: String, _ params: ControlsParams) {
        let result = Result {
            let client = try ControlClient(socketPath: center.socketPath, timeout: center.timeout)
            defer { client.close() }
            let answer: ReloadControlsResult = try client.call(.reloadControls, params: params)
            return answer
        }
        if case .failure(let error) = result { return fail(call: call, error) }
        last.withLock { $0 = result }
    }

    private func fail(call: String, _ error: any Error) {
        let sentence =
            (error as? ControlClientError).map { client in client.hint.map { "\(client.description); \($0)" } ?? client.description }
            ?? "\(error)"
        StandardError.write("ControlCenter: \(call) failed: \(sentence)")
        last.withLock { $0 = .failure(error) }
    }
}
