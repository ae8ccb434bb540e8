import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol

/// App Intents against the real daemon and the docs' Python extension (docs/protocol.md),
/// which serves a configurable kind (PyClockTally), a Control (PyClockLight) and performs intents.
@Suite("App Intents, end to end", .serialized)
struct IntentTests {
    static let app = "org.example.pyclock"

    static func add(_ client: ControlClient, _ configuration: IntentValues?) throws -> AddWidgetResult {
        try client.call(
            .addWidget, params: AddWidgetParams(kind: "PyClockTally", family: .systemSmall, configuration: configuration))
    }

    static func content(_ client: ControlClient, _ id: String) throws -> JSONValue? {
        var status: StatusResult?
        let deadline = Date().addingTimeInterval(10)
        repeat {
            status = try client.call(.status, params: StatusParams(id: id))
        } while status?.widgets.first?.currentEntry.source != .timeline && Date() < deadline && usleep(20_000) == 0
        return status?.widgets.first?.currentEntry.entry?.content
    }

    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ControlClientError {
            return error.rpcError?.message
        } catch {
            return "\(error)"
        }
    }

    @Test("Two configured instances each receive their own intent in timeline/get, and keep it after kill -9 and a restart")
    func configurationsPersist() throws {
        let daemon = try RealDaemon()
        var client = try ControlClient(socketPath: daemon.socket)
        let a = try Self.add(client, ["step": "2", "counter": "coffee"])
        let b = try Self.add(client, ["counter": "water"])
        #expect(a.widget.configuration == ["step": 2, "counter": "coffee"])
        #expect(b.widget.configuration == ["step": 1, "counter": "water"])
        #expect(try Self.content(client, "w1")?["counter"] == "coffee")
        #expect(try Self.content(client, "w2")?["counter"] == "water")
        let all: [WidgetInfo] = try client.call(.getCurrentConfigurations, params: GetCurrentConfigurationsParams(app: Self.app))
        #expect(all.map(\.configuration) == [a.widget.configuration, b.widget.configuration])

        daemon.kill9()
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        let after: [WidgetInfo] = try client.call(.getCurrentConfigurations, params: GetCurrentConfigurationsParams())
        #expect(after.map(\.configuration) == [a.widget.configuration, b.widget.configuration])
        // The next reload (a configuration edit) sends the stored values with the change.
        let edited: ConfigureWidgetResult = try client.call(
            .configureWidget, params: ConfigureWidgetParams(id: "w2", configuration: ["step": 5]))
        #expect(edited.reload.outcome == .started && !edited.reload.budgeted)
        #expect(edited.widget.configuration == ["step": 5, "counter": "water"])
    }

    @Test("Every bad configuration gets a sentence naming the parameter and what is accepted")
    func badConfigurations() throws {
        let daemon = try RealDaemon()
        let client = try ControlClient(socketPath: daemon.socket)
        let cases: [(IntentValues, String)] = [
            (["steps": 2], "PyClockTally: TallyIntent has no parameter \"steps\"; its parameters are step, counter"),
            (["step": "two"], "PyClockTally: step must be an integer, not \"two\""),
            (["counter": "tea"], "PyClockTally: \"tea\" is not a choice for counter; choices are coffee (Coffee), water (Water)"),
        ]
        for (values, message) in cases {
            #expect(Self.refusal { _ = try Self.add(client, values) } == message)
        }
        #expect(Self.refusal { let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "PyClock", family: .systemSmall, configuration: ["step": 1])) }?.contains("is not configurable") == true)
        let options: IntentOptionsResult = try client.call(.options, params: OptionsParams(kind: "PyClockTally", parameter: "counter"))
        #expect(options.options.map(\.id) == ["coffee", "water"])
        #expect(options.defaultId == "coffee")
        #expect(Self.refusal { let _: IntentOptionsResult = try client.call(.options, params: OptionsParams(kind: "PyClockTally", parameter: "colour")) } == "PyClockTally's configuration has no parameter \"colour\"; its parameters are step, counter")
    }

    @Test("A tap runs the intent once and reloads the tapped widget at once, exempt; the other not at all")
    func tapReloadsTheTappedWidget() throws {
        let daemon = try RealDaemon(config: "[budget]\npinned = { PyClockTally = 1 }\n")
        let client = try ControlClient(socketPath: daemon.socket)
        _ = try Self.add(client, nil)
        _ = try Self.add(client, nil)
        #expect(try Self.content(client, "w2")?["taps"] == 0)
        let tapped: TapResult = try client.call(
            .tap, params: TapParams(id: "w1", intent: IntentInvocation(type: "Increment", title: "Increment")))
        #expect(tapped.outcome == .succeeded)
        #expect(tapped.reload?.outcome == .started)
        #expect(tapped.reload?.budgeted == false)
        let deadline = Date().addingTimeInterval(10)
        var w1: JSONValue?
        repeat { w1 = try Self.content(client, "w1")?["taps"] } while w1 != 1 && Date() < deadline && usleep(20_000) == 0
        #expect(w1 == 1)
        let status: StatusResult = try client.call(.status, params: StatusParams())
        #expect(status.widgets.map(\.budget.used) == [0, 0])
        #expect(status.widgets[1].currentEntry.entry?.content["taps"] == 0)

        let failed: TapResult = try client.call(.tap, params: TapParams(id: "w1", intent: IntentInvocation(type: "Fail")))
        #expect(failed.outcome == .failed)
        #expect(failed.detail == "the intent asked to fail")
        #expect(Self.refusal { let _: TapResult = try client.call(.tap, params: TapParams(id: "w1", button: "Done")) } == "w1 has no button \"Done\"; what w1 shows now has no Button(intent:) or Toggle(isOn:intent:)")
    }

    @Test("A Control: its value provider is asked, a tap runs its action, reloadControls reaches it")
    func control() throws {
        let daemon = try RealDaemon()
        let client = try ControlClient(socketPath: daemon.socket)
        let asked: ReloadControlsResult = try client.call(.reloadControls, params: ControlsParams(app: Self.app))
        #expect(asked.asked == ["PyClockLight"])
        var controls: [ControlStatus] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            controls = try client.call(.controls, params: ControlsParams(kind: "PyClockLight"))
        } while controls.first?.value == nil && Date() < deadline && usleep(20_000) == 0
        #expect(controls.first?.value?.isOn == false)
        let tapped: TapResult = try client.call(.tapControl, params: TapControlParams(kind: "PyClockLight", app: Self.app))
        #expect(tapped.outcome == .succeeded)
        #expect(tapped.isOn == true)
        #expect(Self.refusal { let _: TapResult = try client.call(.tapControl, params: TapControlParams(kind: "Torch")) }?.hasPrefix("unknown control kind \"Torch\"") == true)
    }

    @Test("A locale change reloads every widget exempt and the extension's next request carries it")
    func localeChange() throws {
        let daemon = try RealDaemon(config: "[budget]\npinned = { PyClock = 1, PyClockTally = 1 }\n")
        let client = try ControlClient(socketPath: daemon.socket)
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "PyClock", family: .systemSmall))
        _ = try Self.add(client, nil)
        _ = try Self.content(client, "w2")
        let changed: DeviceResult = try client.call(.device, params: DeviceParams(locale: "fr_FR", dynamicTypeSize: "xxLarge"))
        #expect(changed.locale == "fr_FR")
        #expect(changed.reloads.map(\.outcome) == [.started, .started])
        #expect(changed.reloads.allSatisfy { !$0.budgeted })
        let read: DeviceResult = try client.call(.device, params: DeviceParams())
        #expect(read.dynamicTypeSize == "xxLarge")
        #expect(Self.refusal { let _: DeviceResult = try client.call(.device, params: DeviceParams(dynamicTypeSize: "huge")) }?.hasPrefix("\"huge\" is not a Dynamic Type size") == true)
    }

    @Test("The CLI: add --set, configure, options, tap, controls, control tap and reload, device; bad input on stderr")
    func cli() throws {
        let daemon = try RealDaemon()
        let added = try daemon.cli("add", "PyClockTally", "--family", "systemSmall", "--set", "step=3", "--set", "counter=water")
        #expect(added.status == 0, "\(added.stderr)")
        let bad = try daemon.cli("configure", "w1", "--set", "counter=tea")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("\"tea\" is not a choice for counter; choices are coffee (Coffee), water (Water)"), "\(bad.stderr)")
        let configured = try daemon.cli("configure", "w1", "--set", "counter=coffee")
        #expect(configured.stdout.contains("configured w1  counter=\"coffee\" step=3"), "\(configured.stdout)")
        let options = try daemon.cli("options", "PyClockTally", "counter")
        #expect(options.stdout == "coffee  Coffee  (default)\nwater  Water\n", "\(options.stdout)")
        let tapped = try daemon.cli("tap", "w1", "--intent", "Increment")
        #expect(tapped.stdout.contains("Increment succeeded in"), "\(tapped.stdout)")
        #expect(tapped.stdout.contains("w1 reload started"), "\(tapped.stdout)")
        #expect(try daemon.cli("controls").stdout.contains("PyClockLight  toggle  org.example.pyclock  not asked yet"))
        #expect(try daemon.cli("control", "reload", "--app", "org.example.pyclock").stdout == "asked PyClockLight\n")
        let light = try daemon.cli("control", "tap", "PyClockLight")
        #expect(light.stdout.contains("Light succeeded"), "\(light.stdout)")
        let device = try daemon.cli("device", "--locale", "fr_FR")
        #expect(device.stdout.contains("locale fr_FR, text size large; 1 widget(s) reload, exempt"), "\(device.stdout)")
    }
}
