import ArgumentParser
import WidgetHostClient
import WidgetHostProtocol

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the widgets users have added, as WidgetCenter.shared.getCurrentConfigurations does.",
        discussion: """
            Every widget instance the host shows: its id (w1, w2, …, used by status, timeline, \
            view and remove), its kind, its family, the app it belongs to and the extension that \
            draws it. --app limits the list to one app's widgets, which is what an app sees \
            through getCurrentConfigurations.

            Examples:
              widgethost list
              widgethost list --app com.birthdayreminders --json
            """
    )

    @Option(name: .long, help: ArgumentHelp("Only the widgets of this app.", valueName: "app"))
    var app: String?

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let widgets: [WidgetInfo] = try client.call(
                .getCurrentConfigurations, params: GetCurrentConfigurationsParams(app: app))
            if connection.json { return try Console.outputJSON(widgets) }
            guard !widgets.isEmpty else {
                return Console.output(
                    app.map { "No widgets of \($0)." } ?? "No widgets; add one with `widgethost add KIND --family systemSmall`.")
            }
            var table = Table(header: ["ID", "KIND", "FAMILY", "APP", "EXTENSION"])
            for widget in widgets {
                table.append([widget.id, widget.kind, widget.family.rawValue, widget.app, widget.extension])
            }
            Console.output(table.rendered)
        }
    }
}
