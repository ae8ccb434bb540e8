import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Control widgets against the real daemon: the real W8Trackr bundle (LogWeightControl) with
/// the real `w8trackr` app, and Tests/Fixtures/Extensions/controls.py, whose value providers
/// fail and hang.
@Suite("Control widgets, end to end", .serialized)
struct ControlWidgetEndToEndTests {
    static let built = RealDaemon.packageRoot.appendingPathComponent(".build/debug")

    /// Runs the example app (`w8trackr`) against the daemon and its App Group.
    static func w8trackr(_ daemon: RealDaemon, _ arguments: String...) throws -> CLIRun {
        let process = Process()
        process.executableURL = built.appendingPathComponent("w8trackr")
        process.arguments = arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "TZ": "UTC", "WIDGETHOST_SOCKET": daemon.socket,
            "WIDGETHOST_APP_GROUPS": "group.com.w8trackr=\(daemon.directory)/groups/group.com.w8trackr",
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// The control's status once `done` holds (or after 10 s).
    static func control(
        _ client: ControlClient, _ kind: String, until done: (ControlStatus) -> Bool
    ) throws -> ControlStatus? {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let controls: [ControlStatus] = try client.call(.controls, params: ControlsParams(kind: kind))
            if let control = controls.first, done(control) || Date() > deadline { return control }
            if Date() > deadline { return nil }
            usleep(20_000)
        }
    }

    static func weighIns(_ daemon: RealDaemon) throws -> [JSONValue] {
        let data = try Data(contentsOf: URL(fileURLWithPath: daemon.directory + "/groups/group.com.w8trackr/weighins.json"))
        guard case .array(let list) = try JSONDecoder().decode(JSONValue.self, from: data) else { return [] }
        return list
    }

    @Test("W8Trackr: controls lists LogWeightControl with its value, a tap logs today's weight, the app's reload refreshes it")
    func w8trackr() throws {
        let plugins = try ExampleBundle.pluginDirectory(holding: "W8Trackr")
        defer { try? FileManager.default.removeItem(atPath: plugins) }
        let daemon = try RealDaemon(extraPluginPaths: [plugins])
        let client = try ControlClient(socketPath: daemon.socket)

        let listed = try daemon.cli("controls")
        #expect(listed.stdout.contains("LogWeightControl  button  com.w8trackr  not asked yet"), "\(listed.stdout)")
        #expect(try Self.w8trackr(daemon, "unit", "kg").status == 0)
        let yesterday = RFC3339.format(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down)))
        let logged = try Self.w8trackr(daemon, "log", "81.4", "--unit", "kg", "--date", yesterday)
        #expect(logged.status == 0, "\(logged.stderr)")
        // The app's ControlCenter.shared.reloadControls(ofKind:) reached the host.
        #expect(logged.stdout.contains("asked LogWeightControl"), "\(logged.stdout)")
        let first = try Self.control(client, "LogWeightControl") { $0.value?.title == "81.4 kg" && !$0.asking }
        #expect(first?.value?.title == "81.4 kg", "\(String(describing: first))")
        #expect(first?.value?.systemImage == "scalemass")
        #expect(first?.value?.action?.title == "Log Weight")
        #expect(first?.lastError == nil)
        let shown = try daemon.cli("controls")
        #expect(shown.stdout.contains("LogWeightControl  button  com.w8trackr"), "\(shown.stdout)")
        #expect(shown.stdout.contains("81.4 kg"), "\(shown.stdout)")

        // The widget beside it: the tap's intent reloads it through WidgetCenter, exempt.
        #expect(try daemon.cli("add", "WeightWidget", "--family", "systemSmall").status == 0)
        let tapped = try daemon.cli("control", "tap", "LogWeightControl", "--json")
        #expect(tapped.status == 0, "\(tapped.stderr)")
        let tap = try WireCoding.decode(TapResult.self, from: Data(tapped.stdout.utf8))
        #expect(tap.outcome == .succeeded, "\(tap)")
        #expect(try Self.weighIns(daemon).count == 2, "the tap logged today's weight")
        let today = try Self.control(client, "LogWeightControl") { $0.value?.systemImage == "checkmark.circle" && !$0.asking }
        #expect(today?.value?.systemImage == "checkmark.circle", "\(String(describing: today))")
        #expect(today?.value?.title == "81.4 kg")
        let status: StatusResult = try client.call(.status, params: StatusParams(id: "w1"))
        #expect(status.widgets.first?.budget.used == 0, "the intent's reload is exempt")

        // The app logs a new weight: its reloadControls asks the provider again.
        let again = try Self.w8trackr(daemon, "log", "80.2", "--unit", "kg")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("asked LogWeightControl"), "\(again.stdout) \(again.stderr)")
        let refreshed = try Self.control(client, "LogWeightControl") { $0.value?.title == "80.2 kg" && !$0.asking }
        #expect(refreshed?.value?.title == "80.2 kg", "\(String(describing: refreshed)) \((try? Self.weighIns(daemon)) ?? [])")
    }

    @Test("W8Trackr: a provider that throws (unreadable data) keeps the value and says why in controls and events")
    func w8trackrUnreadable() throws {
        let plugins = try ExampleBundle.pluginDirectory(holding: "W8Trackr")
        defer { try? FileManager.default.removeItem(atPath: plugins) }
        let daemon = try RealDaemon(extraPluginPaths: [plugins])
        let client = try ControlClient(socketPath: daemon.socket)
        #expect(try Self.w8trackr(daemon, "log", "81.4", "--unit", "kg").status == 0)
        let first = try Self.control(client, "LogWeightControl") { $0.value != nil && !$0.asking }
        try #require(first?.value != nil, "\(String(describing: first))")
        let events = try IntentMisbehaviourTests.EventLog(socket: daemon.socket) {
            let _: ReloadControlsResult = try client.call(.reloadControls, params: ControlsParams(kind: "LogWeightControl"))
        }
        _ = try Self.control(client, "LogWeightControl") { !$0.asking }
        try Data("not json".utf8).write(
            to: URL(fileURLWithPath: daemon.directory + "/groups/group.com.w8trackr/weighins.json"))
        let asked = try daemon.cli("control", "reload", "LogWeightControl")
        #expect(asked.stdout.contains("asked LogWeightControl"), "\(asked.stdout)")
        let failed = try Self.control(client, "LogWeightControl") { $0.lastError != nil && !$0.asking }
        let reason = failed?.lastError ?? ""
        #expect(reason.hasPrefix("currentValue() threw: "), "\(reason)")
        #expect(reason.contains("weighins.json is not valid W8Trackr data"), "\(reason)")
        #expect(failed?.value?.title != nil, "the control keeps its last value")
        let shown = try daemon.cli("controls")
        #expect(shown.stdout.contains("last ask failed: currentValue() threw: "), "\(shown.stdout)")
        let notices = try events.stop {
            let _: ReloadControlsResult = try client.call(.reloadControls, params: ControlsParams(kind: "LogWeightControl"))
        }
        let details = notices.compactMap { notice -> String? in
            if case .controlUpdated(_, "LogWeightControl", _, nil, let detail?) = notice { detail } else { nil }
        }
        #expect(details.contains { $0.contains("is not valid W8Trackr data") }, "\(notices)")
        // A failed value is not a broken extension: nothing was killed.
        #expect(!notices.contains { $0.type == .extensionKilled })
    }

    @Test("A provider that fails ({error}) or hangs past limits.intent_timeout shows the reason; the others keep working")
    func misbehavingProviders() throws {
        let daemon = try RealDaemon(config: "[limits]\nintent_timeout = \"1s\"\n")
        try RealDaemon.writeFixture(
            "Controls", into: daemon.directory + "/plugins",
            script: RealDaemon.packageRoot.appendingPathComponent("Tests/Fixtures/Extensions/controls.py").path)
        try #require(try daemon.cli("rescan").status == 0)
        let client = try ControlClient(socketPath: daemon.socket)

        let _: ReloadControlsResult = try client.call(.reloadControls, params: ControlsParams(kind: "Thermometer"))
        let offline = try Self.control(client, "Thermometer") { $0.lastError != nil }
        #expect(offline?.lastError == "the thermometer is offline")

        let _: ReloadControlsResult = try client.call(.reloadControls, params: ControlsParams(kind: "Frozen"))
        let frozen = try Self.control(client, "Frozen") { $0.lastError != nil }
        #expect(frozen?.lastError?.contains("to control/value (limits.intent_timeout = 1.0s); its process was killed") == true,
            "\(String(describing: frozen?.lastError))")
        #expect(frozen?.asking == false)

        // A fresh process answers the next control; a tap on the toggle turns it on.
        let tapped: TapResult = try client.call(.tapControl, params: TapControlParams(kind: "Lamp"))
        #expect(tapped.outcome == .succeeded)
        #expect(tapped.isOn == true)
        let lamp = try Self.control(client, "Lamp") { $0.value?.isOn == true && !$0.asking }
        #expect(lamp?.value?.isOn == true)
        #expect(lamp?.value?.systemImage == "lightbulb")
    }
}
