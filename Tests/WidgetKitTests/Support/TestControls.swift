import AppIntents
import Foundation
import SwiftUI
import WidgetKit

/// Controls for the SDK's tests: a button whose provider reads a weight, a toggle (the
/// garage door of Apple's documentation), and providers that fail.
struct LogDoseIntent: AppIntent {
    static let title: LocalizedStringResource = "Log Dose"
    @Parameter(title: "Amount", default: 1) var amount: Int
    func perform() async throws -> some IntentResult {
        ControlCenter.shared.reloadControls(ofKind: "DoseButton")
        return .result()
    }
}

struct ToggleGarageDoor: SetValueIntent {
    static let title: LocalizedStringResource = "Toggle Garage Door"
    @Parameter(title: "Open") var value: Bool
    func perform() async throws -> some IntentResult { .result() }
}

struct Dose: Codable, Sendable, Hashable { var count: Int }

struct DoseProvider: ControlValueProvider {
    var previewValue: Dose { Dose(count: 0) }
    func currentValue() async throws -> Dose { Dose(count: 3) }
}

struct DoseButton: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "DoseButton", provider: DoseProvider()) { dose in
            ControlWidgetButton(action: LogDoseIntent()) {
                Label("\(dose.count) doses", systemImage: "pills")
            }
        }
        .displayName("Log Dose")
        .description("Log one dose")
    }
}

struct GarageDoorValueProvider: ControlValueProvider {
    var previewValue: Bool { false }
    func currentValue() async -> Bool { true }
}

struct GarageDoorOpener: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "com.yourcompany.GarageDoorOpener", provider: GarageDoorValueProvider()) {
            isOpen in
            ControlWidgetToggle("Garage Door", isOn: isOpen, action: ToggleGarageDoor()) {
                Label($0 ? "Open" : "Closed", systemImage: $0 ? "door.garage.open" : "door.garage.closed")
            }
        }
    }
}

struct ProviderFailure: Error, CustomStringConvertible {
    var description: String { "the scale is offline" }
}

struct ThrowingProvider: ControlValueProvider {
    var previewValue: Bool { false }
    func currentValue() async throws -> Bool { throw ProviderFailure() }
}

struct BrokenToggle: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "BrokenToggle", provider: ThrowingProvider()) { isOn in
            ControlWidgetToggle(isOn: isOn, action: ToggleGarageDoor()) { Text("Scale") }
        }
    }
}

/// The seed's Torch control (seeds/004, "StaticControlConfiguration"): no provider, modifiers.
struct ToggleTorchIntent: AppIntent {
    static let title: LocalizedStringResource = "Toggle Torch"
    func perform() async throws -> some IntentResult { .result() }
}

struct TorchControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "TorchControl") {
            ControlWidgetButton(action: ToggleTorchIntent()) {
                Label("Flashlight", systemImage: "flashlight.on.fill")
            }
            .tint(.purple)
        }
        .displayName("Flashlight")
        .description("Toggle flashlight")
    }
}

/// A configurable control: its intent's defaults reach the content.
struct SelectRoomIntent: ControlConfigurationIntent {
    static let title: LocalizedStringResource = "Select Room"
    @Parameter(title: "Room", default: "Kitchen") var room: String
}

struct RoomLightProvider: AppIntentControlValueProvider {
    func previewValue(configuration: SelectRoomIntent) -> Bool { false }
    func currentValue(configuration: SelectRoomIntent) async throws -> Bool { configuration.room == "Kitchen" }
}

struct RoomLight: ControlWidget {
    var body: some ControlWidgetConfiguration {
        AppIntentControlConfiguration(kind: "RoomLight", provider: RoomLightProvider()) { isOn in
            ControlWidgetToggle(isOn: isOn, action: ToggleGarageDoor()) {
                Label("Light", systemImage: "lightbulb")
            } valueLabel: { on in
                Text(on ? "On" : "Off")
            }
        }
    }
}

struct ControlsBundle: WidgetBundle {
    var body: some Widget {
        PlainWidget()
        DoseButton()
        GarageDoorOpener()
        BrokenToggle()
        TorchControl()
        RoomLight()
    }
}

struct OnlyControlsBundle: WidgetBundle {
    var body: some Widget {
        TorchControl()
    }
}

struct TwiceTheSameControl: WidgetBundle {
    var body: some Widget {
        TorchControl()
        TorchControl()
    }
}
