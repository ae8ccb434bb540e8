import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// A configurable kind (Widgy's: pick a saved widget, an entity from the app's query) and a
/// habit kind with a Done button, and a Control, in one extension.
let pickSchema = IntentSchema(
    type: "SelectWidgetIntent", title: "Select Widget",
    parameters: [
        IntentParameterSchema(name: "widget", title: "Widget", type: .entity, optional: true, query: true),
        IntentParameterSchema(name: "showTitle", title: "Show title", type: .boolean, optional: false, default: .bool(true)),
        IntentParameterSchema(
            name: "style", title: "Style", type: .enum, optional: false, default: .string("plain"),
            options: [IntentOption(id: "plain", title: "Plain"), IntentOption(id: "bold", title: "Bold")]),
        IntentParameterSchema(name: "count", title: "Count", type: .integer, optional: true),
        IntentParameterSchema(name: "label", title: "Label", type: .string, optional: false),
    ])

let savedWidgets = [IntentOption(id: "cfg-1", title: "Morning"), IntentOption(id: "cfg-2", title: "Evening")]

let doneIntent = IntentInvocation(type: "MarkHabitDoneIntent", title: "Mark Done", parameters: ["habit": "h1"])
let toggleIntent = IntentInvocation(type: "SetReminderIntent", title: "Reminder")

let intentExtension = ExtensionDescriptor(
    id: "com.widgy.widget",
    widgets: [
        WidgetDescriptor(
            kind: "WidgyWidget", displayName: "Widgy", description: "A saved widget",
            supportedFamilies: [.systemSmall, .systemMedium], intent: pickSchema),
        WidgetDescriptor(
            kind: "HabitWidget", displayName: "Habits", description: "Today's habit", supportedFamilies: [.systemSmall]),
    ],
    controls: [
        ControlDescriptor(
            kind: "LogWeightControl", displayName: "Log weight", description: "Logs today's weight", style: .button,
            action: IntentInvocation(type: "LogWeightIntent", title: "Log Weight")),
        ControlDescriptor(kind: "ReminderControl", displayName: "Reminder", description: "Daily reminder", style: .toggle),
    ])

/// An entry whose view is a Done button and a reminder toggle (`isOn`).
func habitEntry(at date: Date, reminder: Bool = false) -> TimelineEntryPayload {
    let label = ViewNode(.text([ArchiveTextRun(.string("Done"))]))
    let root = ViewNode(
        .vstack(
            alignment: "center", spacing: nil,
            children: [
                ViewNode(.button(ArchiveIntentControl(id: "b1", intent: doneIntent, label: label))),
                ViewNode(
                    .toggle(
                        ArchiveIntentControl(
                            id: "b2", intent: toggleIntent, isOn: reminder,
                            label: ViewNode(.text([ArchiveTextRun(.string("Remind me"))]))))),
            ]))
    return TimelineEntryPayload(date: date, content: .null, view: ViewArchive(family: .systemSmall, root: root))
}

extension TestHost {
    /// A host with the intent extension, whose widgets answer with `habitEntry`, whose query
    /// returns `savedWidgets` and whose intents succeed.
    static func intents(configuration: HostConfiguration = .default) -> TestHost {
        var test = TestHost(configuration: configuration, extensions: [intentExtension]) { params in
            .timeline(TimelinePayload(entries: [habitEntry(at: params.now)], policy: .never))
        }
        test.intents = { call in
            switch call {
            case .perform: .performed(IntentPerformResult())
            case .options: .options(IntentOptionsResult(options: savedWidgets))
            case .controlValue(let params):
                .controlValue(
                    ControlValueResult(
                        isOn: params.kind == "ReminderControl" ? false : nil, title: params.kind,
                        action: params.kind == "ReminderControl" ? toggleIntent : nil))
            default: nil
            }
        }
        return test
    }

    /// Adds a widget and returns the reply (which may be `.answerLater`) and the answer, if any.
    mutating func addConfigured(_ configuration: IntentValues?, kind: String = "WidgyWidget") -> HostReply? {
        let step = handle(.widgetAdded(AddWidgetRequest(kind: kind, family: .systemSmall, configuration: configuration)))
        if case .answerLater(let id)? = step.reply { return answers[id] }
        return step.reply
    }

    /// The widget a reply added.
    static func added(_ reply: HostReply?) -> WidgetInfo? {
        if case .widgetAdded(let result)? = reply { result.widget } else { nil }
    }

    /// The answer to a command that answers later.
    mutating func answered(_ event: HostEvent) -> HostReply? {
        let step = handle(event)
        guard case .answerLater(let id)? = step.reply else { return step.reply }
        return answers[id]
    }

    /// The `timeline/get` requests sent for a widget.
    func timelineRequests(_ id: WidgetID) -> [TimelineParams] {
        effects.compactMap {
            if case .send(let request) = $0, case .timeline(let params) = request.call, request.widget == id {
                params
            } else {
                nil
            }
        }
    }

    func performs() -> [IntentPerformParams] {
        effects.compactMap { if case .send(let request) = $0, case .perform(let params) = request.call { params } else { nil } }
    }
}

func refusal(_ reply: HostReply?) -> String? {
    if case .refused(let error)? = reply { error.description } else { nil }
}
