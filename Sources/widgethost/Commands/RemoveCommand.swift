import ArgumentParser
import WidgetHostClient
import WidgetHostProtocol

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a widget, as a user does from the home screen.",
        discussion: """
            The instance, its timeline and its budget ledger are gone; other instances of the \
            same kind are untouched. Needs root, the daemon's user, or a group in \
            control.admin_groups.

            Example:
              widgethost remove w3
            """
    )

    @Argument(help: ArgumentHelp("The widget id (see `widgethost list`).", valueName: "id"))
    var id: String

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let widget: WidgetInfo = try client.call(.removeWidget, params: WidgetIDParams(id: id))
            if connection.json { return try Console.outputJSON(widget) }
            Console.output("removed \(widget.id)  \(widget.kind) (\(widget.family.rawValue)) of \(widget.app)")
        }
    }
}
