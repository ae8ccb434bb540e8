import Foundation
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner

extension Tag {
    /// Tests that start extension processes.
    @Tag static var process: Self
}

/// The fixture extension (Tests/Fixtures/Extensions/extension.py), whose behaviour follows
/// `WIDGETHOST_FIXTURE`.
enum FixtureExtension {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Extensions/extension.py").path

    /// How to start the fixture in `mode` ("sleeper", "crasher", … see extension.py).
    static func launch(_ mode: String, extra: [String: String] = [:]) -> ExtensionLaunch {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? ExtensionLaunch.defaultPath,
            "WIDGETHOST_FIXTURE": mode,
            "WIDGETHOST_BUNDLE": NSTemporaryDirectory() + "Fixture.appex",
            "WIDGETHOST_APP_GROUPS": "",
        ]
        environment.merge(extra) { _, new in new }
        return ExtensionLaunch(
            bundleID: "com.fixture.\(mode.lowercased()).widget", executable: script,
            directory: NSTemporaryDirectory() + "Fixture.appex", environment: environment)
    }

    /// Short limits, so that the gallery runs in seconds; the defaults are the core's tests.
    static var limits: ExtensionLimits {
        var limits = ExtensionLimits()
        limits.timelineTimeout = 2
        return limits
    }

    static let timeline = ExtensionRequest.Call.timeline(
        TimelineParams(kind: "FixtureWidget", family: .systemSmall, widgetId: "w1", now: Date(timeIntervalSince1970: 1_771_142_400)))
}

/// What one request came to, as the core would judge it: the reply, or the failure.
enum RequestOutcome: Sendable, Hashable, CustomStringConvertible {
    case replied
    case failed(ExtensionFailure)

    var kind: String {
        switch self {
        case .replied: "replied"
        case .failed(.timedOut): "timedOut"
        case .failed(.memoryLimitExceeded): "memoryLimitExceeded"
        case .failed(.crashed): "crashed"
        case .failed(.protocolError): "protocolError"
        }
    }

    var description: String {
        switch self {
        case .replied: "replied"
        case .failed(.timedOut(let elapsed)): "timedOut after \(elapsed) s"
        case .failed(.memoryLimitExceeded(let bytes)): "memoryLimitExceeded at \(bytes) bytes"
        case .failed(.crashed(let detail)): "crashed: \(detail)"
        case .failed(.protocolError(let detail)): "protocolError: \(detail)"
        }
    }
}

/// Turns what a process did into the outcome, asking the core's verdict for samples and
/// for the deadline — as the daemon's core, the harness's core and the doctor do.
struct RequestJudge {
    var limits: ExtensionLimits
    var method: ExtensionMethod = .timeline

    func take(_ event: ProcessEvent, elapsed: TimeInterval) -> RequestOutcome? {
        switch event {
        case .sampled(let bytes):
            return limits.verdict(on: method, elapsed: elapsed, footprintBytes: bytes).map { .failed($0) }
        case .replied(_, _, let footprint):
            return limits.verdict(onFootprint: footprint).map { .failed($0) } ?? .replied
        case .failed(_, let failure):
            return .failed(failure)
        case .stopped(let reason):
            return .failed(.protocolError(reason))
        case .initialized, .stderr, .note, .exited:
            return nil
        }
    }

    /// Nothing came before the deadline.
    func atDeadline(elapsed: TimeInterval) -> RequestOutcome {
        .failed(limits.verdict(on: method, elapsed: elapsed, footprintBytes: nil) ?? .timedOut(elapsed: elapsed))
    }
}
