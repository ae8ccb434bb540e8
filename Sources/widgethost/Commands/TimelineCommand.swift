import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostProtocol

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show a widget's current timeline: its entries and reload policy.",
        discussion: """
            The Timeline the widget's TimelineProvider last returned from getTimeline: every \
            entry with its date, relevance and content (the entry on screen now is marked *), \
            and the reload policy — .atEnd (reload after the last entry), .after(date) or \
            .never (only when an app asks).

            Example:
              widgethost timeline w1
            """
    )

    @Argument(help: ArgumentHelp("The widget id (see `widgethost list`).", valueName: "id"))
    var id: String

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: TimelineResult = try client.call(.timeline, params: WidgetIDParams(id: id))
            if connection.json { return try Console.outputJSON(result) }
            Console.output(TimelineText.text(result, now: Date()))
        }
    }
}
