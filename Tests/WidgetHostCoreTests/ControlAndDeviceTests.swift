import Foundation
import Testing
import WidgetHostCore
import WidgetHostProtocol

@Suite("Control widgets")
struct ControlTests {
    @Test("reloadControls asks each control's value provider; controls shows what it said")
    func valueProviderAsked() {
        var test = TestHost.intents()
        #expect(test.host.controlStatuses().map(\.kind) == ["LogWeightControl", "ReminderControl"])
        #expect(test.host.controlStatuses().allSatisfy { $0.value == nil })
        let reply = test.handle(.controlsReloadRequested(kind: nil, app: nil)).reply
        #expect(reply == .controlsReloaded(ReloadControlsResult(asked: ["LogWeightControl", "ReminderControl"])))
        #expect(test.host.controlStatuses(kind: "ReminderControl").first?.value?.isOn == false)
        #expect(test.notices.filter { $0.type == .controlUpdated }.count == 2)
    }

    @Test("A value provider that hangs is cut off at intent_timeout; the control keeps its last value and says why")
    func hangCutOff() {
        var test = TestHost.intents()
        test.handle(.controlsReloadRequested(kind: "ReminderControl", app: nil))
        test.intents = { _ in nil }
        test.handle(.controlsReloadRequested(kind: "ReminderControl", app: nil))
        #expect(test.host.controlStatuses(kind: "ReminderControl").first?.asking == true)
        test.advance(by: 5)
        let status = test.host.controlStatuses(kind: "ReminderControl").first
        #expect(status?.asking == false)
        #expect(status?.value?.isOn == false)
        #expect(status?.lastError?.hasPrefix("no reply after 5.00s") == true)
        #expect(test.effects.contains(.kill(extension: "com.widgy.widget", reason: .timedOut)))
    }

    @Test("A value provider that threw ({error}) keeps the last value, says why, and no process is killed")
    func providerThrew() {
        var test = TestHost.intents()
        test.handle(.controlsReloadRequested(kind: "ReminderControl", app: nil))
        test.intents = { _ in .controlValue(ControlValueResult(error: "currentValue() threw: the scale is offline")) }
        test.handle(.controlsReloadRequested(kind: "ReminderControl", app: nil))
        let status = test.host.controlStatuses(kind: "ReminderControl").first
        #expect(status?.asking == false)
        #expect(status?.value?.isOn == false)
        #expect(status?.value?.error == nil)
        #expect(status?.lastError == "currentValue() threw: the scale is offline")
        #expect(!test.effects.contains { if case .kill = $0 { true } else { false } })
        guard case .controlUpdated(_, _, _, let value, let detail)? = test.notices.last(where: { $0.type == .controlUpdated })
        else {
            Issue.record("expected a controlUpdated notice")
            return
        }
        #expect(value == nil)
        #expect(detail == "currentValue() threw: the scale is offline")
        // The next answer clears the reason.
        test.intents = { _ in .controlValue(ControlValueResult(isOn: true)) }
        test.handle(.controlsReloadRequested(kind: "ReminderControl", app: nil))
        #expect(test.host.controlStatuses(kind: "ReminderControl").first?.lastError == nil)
        #expect(test.host.controlStatuses(kind: "ReminderControl").first?.value?.isOn == true)
    }

    @Test("A reload while the provider is being asked asks once more after it answers, not twice at once")
    func reloadWhileAsking() {
        var test = TestHost.intents()
        test.intents = { _ in nil }
        for _ in 0..<3 { test.handle(.controlsReloadRequested(kind: "ReminderControl", app: nil)) }
        #expect(test.held.count == 1, "one request out at a time")
        let first = test.held.removeFirst()
        test.intents = { _ in .controlValue(ControlValueResult(isOn: true)) }
        test.handle(.extensionReplied(first.id, .controlValue(ControlValueResult(isOn: false)), footprintBytes: nil))
        let asks = test.effects.filter { if case .send(let request) = $0, case .controlValue = request.call { true } else { false } }
        #expect(asks.count == 2, "the three reloads made two asks")
        #expect(test.host.controlStatuses(kind: "ReminderControl").first?.value?.isOn == true)
        #expect(test.host.controlStatuses(kind: "ReminderControl").first?.asking == false)
    }

    @Test("Tapping a toggle control runs its action with the new state, and the provider is asked again")
    func tapToggle() {
        var test = TestHost.intents()
        test.handle(.controlsReloadRequested(kind: nil, app: nil))
        let reply = test.answered(.controlTapped(kind: "ReminderControl", app: nil))
        guard case .tapped(let result)? = reply else { Issue.record("expected tapped: \(String(describing: reply))"); return }
        #expect(result.outcome == .succeeded)
        #expect(result.isOn == true)
        #expect(test.performs().last?.isOn == true)
        #expect(test.performs().last?.widgetId == nil)
        let asked = test.effects.filter { if case .send(let request) = $0, case .controlValue = request.call { true } else { false } }
        #expect(asked.count == 3)
    }

    @Test("Unknown controls are refused with the known ones")
    func unknownControl() {
        var test = TestHost.intents()
        #expect(refusal(test.answered(.controlTapped(kind: "Torch", app: nil))) == "unknown control kind \"Torch\"; known controls are LogWeightControl, ReminderControl")
        #expect(refusal(test.handle(.controlsReloadRequested(kind: "Torch", app: nil)).reply) != nil)
    }
}

@Suite("The device's locale and text size")
struct DeviceTests {
    @Test("A locale change reloads every instance exempt, and the extension sees the new locale")
    func localeChange() throws {
        var test = TestHost(configuration: config { $0.budget.pinned = ["BirthdayHomeWidget": 1, "WeatherWidget": 1] })
        let a = test.add()
        let b = test.add("WeatherWidget")
        test.advance(by: 60)
        guard case .device(let result)? = test.handle(.deviceChanged(DeviceSettings(locale: "fr_FR"))).reply else {
            Issue.record("expected device"); return
        }
        #expect(result.reloads.map(\.outcome) == [.started, .started])
        for id in [a, b] {
            #expect(test.started(id).last?.charge == .exempt(.localeChange))
            #expect(test.status(id).budget.used == 0)
        }
        let last = try #require(test.effects.compactMap { if case .send(let r) = $0, case .timeline(let p) = r.call { p } else { nil } }.last)
        #expect(last.environment?.locale == "fr_FR")
        // The same locale again changes nothing.
        guard case .device(let again)? = test.handle(.deviceChanged(DeviceSettings(locale: "fr_FR"))).reply else { return }
        #expect(again.reloads.isEmpty)
    }

    @Test("A text size change is an accessibility exemption; bad values are refused with what is accepted")
    func textSize() {
        var test = TestHost()
        let a = test.add()
        test.handle(.deviceChanged(DeviceSettings(dynamicTypeSize: "xxLarge")))
        #expect(test.started(a).last?.charge == .exempt(.accessibilityChange))
        #expect(test.host.device.dynamicTypeSize == "xxLarge")
        #expect(refusal(test.handle(.deviceChanged(DeviceSettings(dynamicTypeSize: "huge"))).reply)?.hasPrefix("\"huge\" is not a Dynamic Type size; one of xSmall") == true)
        #expect(refusal(test.handle(.deviceChanged(DeviceSettings(locale: "../etc"))).reply)?.contains("is not a locale identifier") == true)
    }
}
