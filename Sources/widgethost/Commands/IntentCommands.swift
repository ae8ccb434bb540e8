import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostProtocol

/// `--set NAME=VALUE` pairs as intent values: the host reads each string as its parameter's
/// type; `NAME=` (nothing after the sign) removes a value.
enum IntentSettings {
    static func parse(_ settings: [String]) throws -> IntentValues {
        var values: IntentValues = [:]
        for setting in settings {
            guard let sign = setting.firstIndex(of: "="), sign != setting.startIndex else {
                throw ValidationError("--set \(setting): write it as NAME=VALUE, e.g. --set project=p1")
            }
            let value = String(setting[setting.index(after: sign)...])
            values[String(setting[..<sign])] = value.isEmpty ? .null : .string(value)
        }
        return values
    }

    static func text(_ values: IntentValues?) -> String {
        guard let values, !values.isEmpty else { return "" }
        return values.keys.sorted().map { "\($0)=\(Text.json(values[$0]!))" }.joined(separator: " ")
    }
}

struct ConfigureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure",
        abstract: "Edit a configurable widget's configuration, as a user does with Edit Widget.",
        discussion: """
            Sets the parameters given with --set NAME=VALUE (NAME= removes one, which takes \\
            its default again), checked against the kind's intent. The widget reloads at once, \\
            exempt from the budget (a user interaction, as on a device).

            Example:
              widgethost configure w1 --set widget=cfg-2
            """)

    @Argument(help: ArgumentHelp("The widget's id.", valueName: "id")) var id: String
    @Option(name: .customLong("set"), help: ArgumentHelp("NAME=VALUE (repeatable).", valueName: "name=value"))
    var settings: [String] = []
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if settings.isEmpty { throw ValidationError("give at least one --set NAME=VALUE") }
        _ = try IntentSettings.parse(settings)
    }

    func run() throws {
        try connection.withClient { client in
            let result: ConfigureWidgetResult = try client.call(
                .configureWidget, params: ConfigureWidgetParams(id: id, configuration: try IntentSettings.parse(settings)))
            if connection.json { return try Console.outputJSON(result) }
            let reload = ReloadText.describe(result.reload, time: TimeText(now: Date()))
            Console.output(
                TerminalText.safe("configured \(result.widget.id)  \(IntentSettings.text(result.widget.configuration)); reload \(reload)"))
        }
    }
}

struct OptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "options",
        abstract: "The choices of a configurable kind's parameter (an entity query's suggestions, an enum's cases).",
        discussion: "Example:\n  widgethost options WidgyWidget widget")

    @Argument(help: ArgumentHelp("The widget kind.", valueName: "kind")) var kind: String
    @Argument(help: ArgumentHelp("The parameter's name.", valueName: "parameter")) var parameter: String
    @Option(name: .long, help: ArgumentHelp("The app that defines the kind, if two do.", valueName: "app")) var app: String?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: IntentOptionsResult = try client.call(
                .options, params: OptionsParams(kind: kind, parameter: parameter, app: app))
            if connection.json { return try Console.outputJSON(result) }
            for option in result.options {
                let mark = option.id == result.defaultId ? "  (default)" : ""
                let subtitle = option.subtitle.map { " — \($0)" } ?? ""
                Console.output(TerminalText.safe("\(option.id)  \(option.title)\(subtitle)\(mark)"))
            }
        }
    }
}

struct TapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap",
        abstract: "Tap a Button(intent:) or Toggle(isOn:intent:) in a widget.",
        discussion: """
            BUTTON is the button's id in the archive (b1, b2, … in reading order), its intent's \\
            type or title, or its label's text; leave it out when the widget shows one. The \\
            intent runs in the extension within limits.intent_timeout; on success the tapped \\
            widget reloads at once, exempt. --intent TYPE taps a widget without a view.

            Example:
              widgethost tap w1 Done
            """)

    @Argument(help: ArgumentHelp("The widget's id.", valueName: "id")) var id: String
    @Argument(help: ArgumentHelp("Which button.", valueName: "button")) var button: String?
    @Option(name: .long, help: ArgumentHelp("Run this intent type instead of a button's.", valueName: "type"))
    var intent: String?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: TapResult = try client.call(
                .tap, params: TapParams(id: id, button: button, intent: intent.map { IntentInvocation(type: $0) }))
            if connection.json { return try Console.outputJSON(result) }
            Console.output(TapText.describe(result))
        }
    }
}

struct ControlsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controls",
        abstract: "The Control widgets and what their value providers last said.")

    @Option(name: .long, help: ArgumentHelp("Only this app's.", valueName: "app")) var app: String?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: [ControlStatus] = try client.call(.controls, params: ControlsParams(app: app))
            if connection.json { return try Console.outputJSON(result) }
            if result.isEmpty { return Console.output("no controls") }
            for control in result {
                var state = control.value.map { value in
                    [value.isOn.map { $0 ? "on" : "off" }, value.title].compactMap { $0 }.joined(separator: " ")
                } ?? "not asked yet (widgethost control reload \(control.kind))"
                if control.asking { state += " (asking)" }
                if let error = control.lastError { state += " — last ask failed: \(error)" }
                Console.output(TerminalText.safe("\(control.kind)  \(control.style.rawValue)  \(control.app)  \(state)"))
            }
        }
    }
}

struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control",
        abstract: "Tap a Control widget, or ask its value provider again.",
        discussion: "Examples:\n  widgethost control tap LogWeightControl\n  widgethost control reload LogWeightControl")

    @Argument(help: ArgumentHelp("tap or reload.", valueName: "action")) var action: String
    @Argument(help: ArgumentHelp("The control's kind (reload: leave out for all).", valueName: "kind")) var kind: String?
    @Option(name: .long, help: ArgumentHelp("The app that defines the kind, if two do.", valueName: "app")) var app: String?
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard ["tap", "reload"].contains(action) else { throw ValidationError("the action is tap or reload, not \(action)") }
        if action == "tap", kind == nil { throw ValidationError("control tap needs the control's kind") }
    }

    func run() throws {
        try connection.withClient { client in
            if action == "tap" {
                let result: TapResult = try client.call(.tapControl, params: TapControlParams(kind: kind ?? "", app: app))
                if connection.json { return try Console.outputJSON(result) }
                return Console.output(TapText.describe(result))
            }
            let result: ReloadControlsResult = try client.call(.reloadControls, params: ControlsParams(kind: kind, app: app))
            if connection.json { return try Console.outputJSON(result) }
            Console.output(TerminalText.safe("asked " + (result.asked.isEmpty ? "no control" : result.asked.joined(separator: ", "))))
        }
    }
}

struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Read or change the simulated device's locale and text size.",
        discussion: """
            A change gives every widget one exempt reload (Apple: a locale change, a Dynamic \\
            Type or accessibility change), and extensions see it in every request. Changing \\
            needs root, the daemon's user, or a group in control.admin_groups.

            Examples:
              widgethost device
              widgethost device --locale fr_FR --text-size xxLarge
            """)

    @Option(name: .long, help: ArgumentHelp("A locale such as fr_FR.", valueName: "locale")) var locale: String?
    @Option(
        name: .customLong("text-size"), help: ArgumentHelp("A Dynamic Type size.", valueName: "size"),
        completion: .list(DynamicTypeSizeName.all))
    var textSize: String?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: DeviceResult = try client.call(.device, params: DeviceParams(locale: locale, dynamicTypeSize: textSize))
            if connection.json { return try Console.outputJSON(result) }
            Console.output(
                TerminalText.safe(
                    "locale \(result.locale ?? "(the host's)"), text size \(result.dynamicTypeSize ?? "large")"
                        + (result.reloads.isEmpty ? "" : "; \(result.reloads.count) widget(s) reload, exempt")))
        }
    }
}

enum TapText {
    static func describe(_ result: TapResult) -> String {
        var line = "\(result.intent.displayName) \(result.outcome.rawValue) in \(Text.milliseconds(result.durationMs))"
        if let detail = result.detail { line += " — \(detail)" }
        if let isOn = result.isOn { line += "; now \(isOn ? "on" : "off")" }
        if let reload = result.reload {
            line += "; \(reload.id) reload " + ReloadText.describe(reload, time: TimeText(now: Date()))
        }
        return TerminalText.safe(line)
    }
}
