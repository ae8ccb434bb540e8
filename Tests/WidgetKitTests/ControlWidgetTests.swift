import AppIntents
import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("Control widgets served by the SDK")
struct ControlWidgetTests {
    let channel: Channel

    init() throws { channel = Channel(try ExtensionServer(bundle: ControlsBundle())) }

    @Test("initialize declares the controls beside the widgets, each built with its preview value")
    func initialize() async throws {
        let result = try await channel.result("initialize", as: InitializeResult.self)
        #expect(result.widgets.map(\.kind) == ["Plain"])
        let controls = try #require(result.controls)
        #expect(controls.map(\.kind) == ["DoseButton", "com.yourcompany.GarageDoorOpener", "BrokenToggle", "TorchControl", "RoomLight"])
        #expect(controls.map(\.style) == [.button, .toggle, .toggle, .button, .toggle])
        #expect(controls[0].displayName == "Log Dose")
        #expect(controls[0].description == "Log one dose")
        #expect(controls[0].action?.title == "Log Dose")
        #expect(controls[0].action?.parameters == ["amount": 1])
        // Without .displayName the kind names it, as a widget's does.
        #expect(controls[1].displayName == "com.yourcompany.GarageDoorOpener")
        #expect(controls[3].displayName == "Flashlight")
        #expect(controls[4].intent?.title == "Select Room")
        #expect(controls[4].intent?.parameters.map(\.name) == ["room"])
        #expect(controls.prefix(4).allSatisfy { $0.intent == nil })
    }

    @Test("control/value runs currentValue() and answers the template built from it, with the value")
    func buttonValue() async throws {
        let value = try await channel.result(
            "control/value", ["kind": "DoseButton", "now": "2026-02-15T08:00:00Z"], as: ControlValueResult.self)
        #expect(value.title == "3 doses")
        #expect(value.systemImage == "pills")
        #expect(value.isOn == nil)
        #expect(value.value == ["count": 3])
        #expect(value.action?.title == "Log Dose")
        #expect(value.error == nil)
    }

    @Test("A toggle answers isOn; its title comes from the title, its symbol from the value label")
    func toggleValue() async throws {
        let value = try await channel.result(
            "control/value", ["kind": "com.yourcompany.GarageDoorOpener", "now": "2026-02-15T08:00:00Z"],
            as: ControlValueResult.self)
        #expect(value.isOn == true)
        #expect(value.title == "Garage Door")
        #expect(value.systemImage == "door.garage.open")
        #expect(value.value == nil, "a Bool value is the toggle's state, not repeated")
        #expect(value.action?.title == "Toggle Garage Door")
    }

    @Test("An AppIntentControlConfiguration's provider gets the intent with its defaults")
    func configurableValue() async throws {
        let value = try await channel.result(
            "control/value", ["kind": "RoomLight", "now": "2026-02-15T08:00:00Z"], as: ControlValueResult.self)
        #expect(value.isOn == true)
        #expect(value.title == "Light")
        #expect(value.systemImage == "lightbulb")
    }

    @Test("A control without a provider answers its template")
    func noProvider() async throws {
        let value = try await channel.result(
            "control/value", ["kind": "TorchControl", "now": "2026-02-15T08:00:00Z"], as: ControlValueResult.self)
        #expect(value.title == "Flashlight")
        #expect(value.systemImage == "flashlight.on.fill")
        #expect(value.action?.title == "Toggle Torch")
    }

    @Test("A provider that throws answers {error} with the reason, not a JSON-RPC error: the process lives on")
    func providerThrows() async throws {
        let value = try await channel.result(
            "control/value", ["kind": "BrokenToggle", "now": "2026-02-15T08:00:00Z"], as: ControlValueResult.self)
        #expect(value == ControlValueResult(error: "currentValue() threw: the scale is offline"))
        // The server still answers afterwards.
        #expect(try await channel.result("initialize", as: InitializeResult.self).controls?.count == 5)
    }

    @Test("An unknown control kind or missing params get -32602 naming what is known")
    func badRequests() async throws {
        let unknown = try await channel.error("control/value", ["kind": "Torch", "now": "2026-02-15T08:00:00Z"])
        #expect(unknown.code == -32602)
        #expect(
            unknown.message
                == "Invalid params: unknown control kind \"Torch\"; known controls are DoseButton, com.yourcompany.GarageDoorOpener, BrokenToggle, TorchControl, RoomLight"
        )
        let missing = try await channel.error("control/value", ["kind": "TorchControl"])
        #expect(missing.code == -32602)
        #expect(missing.message.hasPrefix("Invalid params: control/value needs kind and now"))
        let none = try await Channel(try ExtensionServer(widget: PlainWidget())).error(
            "control/value", ["kind": "TorchControl", "now": "2026-02-15T08:00:00Z"])
        #expect(none.message.hasSuffix("this extension declares no controls"))
    }

    @Test("A bundle of controls only is served; a control kind declared twice is refused")
    func bundles() async throws {
        let only = Channel(try ExtensionServer(bundle: OnlyControlsBundle()))
        let result = try await only.result("initialize", as: InitializeResult.self)
        #expect(result.widgets.isEmpty)
        #expect(result.controls?.map(\.kind) == ["TorchControl"])
        #expect(throws: ExtensionServer.ConfigurationError.self) { try ExtensionServer(bundle: TwiceTheSameControl()) }
        do {
            _ = try ExtensionServer(bundle: TwiceTheSameControl())
        } catch {
            #expect(error.description.contains("the control kind \"TorchControl\" is declared twice"))
        }
    }

    @Test("A bundle without controls declares none (the field is absent, as in protocol 2)")
    func noControls() async throws {
        let line = try await Channel(try ExtensionServer(widget: PlainWidget())).call("initialize").get()
        #expect(line["controls"] == nil)
    }

    @Test("ControlCenter inside an intent's perform() is reported with its result, not sent")
    func controlCenterInsideIntent() async throws {
        let invocation = _IntentRuntime.invocation(LogDoseIntent())
        let result = await _IntentRuntime.perform(
            IntentPerformParams(intent: invocation, kind: "DoseButton", widgetId: nil, now: Date()))
        #expect(result.error == nil)
        #expect(result.reloadControlKinds == ["DoseButton"])
    }

    @Test("ControlCenter outside an intent calls the socket; without a daemon or an app id it says why")
    func controlCenterCalls() {
        let center = WidgetCenter(environment: ["WIDGETHOST_SOCKET": "/nonexistent/widgethost.sock"])
        let controls = ControlCenter(center: center, environment: [:])
        controls.reloadControls(ofKind: "DoseButton")
        guard case .failure(let error)? = controls.lastReloadResult else {
            Issue.record("expected a failure, got \(String(describing: controls.lastReloadResult))")
            return
        }
        #expect("\(error)".contains("/nonexistent/widgethost.sock"))
        controls.reloadAllControls()
        guard case .failure(let missing)? = controls.lastReloadResult else {
            Issue.record("expected a failure")
            return
        }
        #expect(
            "\(missing)" == "reloadAllControls() needs the calling app's id; set WidgetCenter.shared.appIdentifier or WIDGETHOST_APP")
    }
}
