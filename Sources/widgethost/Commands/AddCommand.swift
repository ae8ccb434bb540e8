import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostProtocol

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a widget, as a user does from the widget gallery.",
        discussion: """
            Creates a new widget instance of KIND in one family (its size). Each instance has \
            its own id and its own refresh budget. The host asks the extension for a \
            placeholder, then for a timeline: that first reload is exempt from the budget, as \
            on a device.

            Families: \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")). \
            The kind must support the family (see `widgethost extensions`). --app is needed \
            only when two apps define the same kind. Needs root, the daemon's user, or a group \
            in control.admin_groups.

            A configurable kind (AppIntentConfiguration) takes its parameters with --set \
            NAME=VALUE, checked against the kind's intent; what is left out takes its default \
            (`widgethost options KIND PARAMETER` lists an entity's choices).

            Example:
              widgethost add BirthdayHomeWidget --family systemSmall
              widgethost add WidgyWidget --family systemMedium --set widget=cfg-2
            """
    )

    @Argument(help: ArgumentHelp("The widget kind, as its Widget's `kind` says.", valueName: "kind"))
    var kind: String

    @Option(
        name: .long,
        help: ArgumentHelp("The widget family (size), e.g. systemSmall.", valueName: "family"),
        completion: .list(WidgetFamily.allCases.map(\.rawValue)))
    var family: String

    @Option(name: .long, help: ArgumentHelp("The app that defines the kind, if two do.", valueName: "app"))
    var app: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A configuration parameter, NAME=VALUE (repeatable).", valueName: "name=value"))
    var settings: [String] = []

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if case .failure(let error) = WidgetFamily.parse(family) { throw ValidationError(error.description) }
        _ = try IntentSettings.parse(settings)
    }

    func run() throws {
        let family = try WidgetFamily.parse(family).get()
        try connection.withClient { client in
            let result: AddWidgetResult = try client.call(
                .addWidget,
                params: AddWidgetParams(
                    kind: kind, family: family, app: app,
                    configuration: settings.isEmpty ? nil : try IntentSettings.parse(settings)))
            if connection.json { return try Console.outputJSON(result) }
            let widget = result.widget
            let reload = ReloadText.describe(result.reload, time: TimeText(now: Date()))
            Console.output(
                "added \(widget.id)  \(widget.kind) (\(widget.family.rawValue)) of \(widget.app); first reload \(reload)")
        }
    }
}
