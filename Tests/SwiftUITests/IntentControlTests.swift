import AppIntents
import Foundation
import SwiftUI
import Testing
import WidgetHostProtocol
import WidgetKit

struct CompleteHabitIntent: AppIntent {
    static let title: LocalizedStringResource = "Complete habit"
    @Parameter(title: "Habit") var habit: String
    @Parameter(title: "Count", default: 1) var count: Int
    init() {}
    init(habit: String, count: Int = 1) {
        self.habit = habit
        self.count = count
    }
    func perform() async throws -> some IntentResult { .result() }
}

struct ToggleAlarmIntent: SetValueIntent {
    static let title: LocalizedStringResource = "Alarm"
    @Parameter(title: "On") var value: Bool
    func perform() async throws -> some IntentResult { .result() }
}

/// Buttons in a stack, in a label's place, behind a background and over an overlay.
struct HabitsView: View {
    var body: some View {
        VStack {
            Button(intent: CompleteHabitIntent(habit: "read")) { Label("Read", systemImage: "book") }
            HStack {
                Button("Walk", intent: CompleteHabitIntent(habit: "walk", count: 2))
                Toggle("Alarm", isOn: true, intent: ToggleAlarmIntent())
            }
            .overlay(alignment: .topTrailing) { Button("Later", systemImage: "clock", intent: CompleteHabitIntent(habit: "later")) }
            Text("Today")
        }
        .background(alignment: .center) { Toggle(isOn: false, intent: ToggleAlarmIntent()) { Text("Quiet") } }
    }
}

@Suite("Button(intent:) and Toggle(isOn:intent:) in the archive")
struct IntentControlTests {
    @Test("A button archives its intent's type, title and values, and its label")
    func button() throws {
        let root = archive(Button(intent: CompleteHabitIntent(habit: "read")) { Text("Done") })
        guard case .button(let control) = root.content else {
            Issue.record("expected a button, got \(root.type)")
            return
        }
        #expect(control.id == "b1")
        #expect(
            control.intent
                == IntentInvocation(type: "SwiftUITests.CompleteHabitIntent", title: "Complete habit", parameters: ["habit": "read", "count": 1]))
        #expect(control.isOn == nil)
        #expect(control.label.texts == ["Done"])
    }

    @Test("A toggle archives its state and intent; its value is left for the host to set")
    func toggle() throws {
        let root = archive(Toggle("Alarm", isOn: true, intent: ToggleAlarmIntent()))
        guard case .toggle(let control) = root.content else {
            Issue.record("expected a toggle, got \(root.type)")
            return
        }
        #expect(control.isOn == true)
        #expect(control.intent == IntentInvocation(type: "SwiftUITests.ToggleAlarmIntent", title: "Alarm", parameters: [:]))
        #expect(control.label.texts == ["Alarm"])
    }

    @Test("Buttons and toggles are numbered b1, b2, … in the order the host reads them, modifiers' views included")
    func numbering() throws {
        let root = archive(HabitsView())
        let controls = root.intentControls
        #expect(controls.map(\.control.id) == ["b1", "b2", "b3", "b4", "b5"])
        #expect(controls.map(\.kind) == ["button", "button", "toggle", "button", "toggle"])
        #expect(
            controls.map { $0.control.intent.parameters["habit"] ?? "-" } == ["read", "walk", "-", "later", "-"])
        #expect(controls.map { $0.control.label.texts } == [["Read"], ["Walk"], ["Alarm"], ["Later"], ["Quiet"]])
    }

    @Test("The archive's button and toggle nodes round-trip through JSON as docs/protocol.md shows them")
    func wire() throws {
        let root = archive(HStack { Button("Go", intent: CompleteHabitIntent(habit: "go")); Toggle("On", isOn: false, intent: ToggleAlarmIntent()) })
        let json = try JSONValue(encoding: root)
        let button = json["children"]?.arrayValue?.first
        #expect(button?["type"] == "button")
        #expect(button?["id"] == "b1")
        #expect(button?["intent"] == ["type": "SwiftUITests.CompleteHabitIntent", "title": "Complete habit", "parameters": ["habit": "go", "count": 1]])
        #expect(button?["label"]?["type"] == "text")
        let toggle = json["children"]?.arrayValue?.last
        #expect(toggle?["type"] == "toggle" && toggle?["isOn"] == false && toggle?["id"] == "b2")
        #expect(try json.decode(as: ViewNode.self) == root)
    }
}

extension JSONValue {
    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}
