import ArgumentParser
import WidgetHostClient
import WidgetHostProtocol

struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Record that the user looked at a widget (it raises the widget's budget).",
        discussion: """
            On a device, widgets that are viewed more get more reloads. Here the daily budget \
            is B = min + (max − min) · e, where the engagement e is the views in the last 24 \
            hours over 12 (at most 1): 40 reloads for a widget nobody looks at, 70 for one seen \
            12 times a day. For 72 hours after a widget is added, e = 1 while the host learns.

            Example:
              widgethost view w1
            """
    )

    @Argument(help: ArgumentHelp("The widget id (see `widgethost list`).", valueName: "id"))
    var id: String

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let budget: BudgetStatus = try client.call(.recordView, params: WidgetIDParams(id: id))
            if connection.json { return try Console.outputJSON(budget) }
            var line = "recorded a view of \(id): \(Text.plural(budget.views, "view")) in the last 24 h, "
            line += "engagement \(String(format: "%.2f", budget.engagement)), budget \(budget.used) of \(budget.limit) used"
            if budget.learning { line += " (learning period: B stays at the maximum)" }
            if budget.pinned { line += " (B is pinned by the configuration)" }
            Console.output(line)
        }
    }
}
