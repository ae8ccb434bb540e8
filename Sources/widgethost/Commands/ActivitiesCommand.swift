import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostProtocol

struct ActivitiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activities",
        abstract: "List Live Activities: state, age, staleness and pushes used in the last hour.",
        discussion: """
            One line per activity: its id, app, attributes type, state (active, stale, ended, \
            dismissed), how long ago it started, when it goes stale or leaves the Lock Screen, \
            and its priority-10 pushes in the last hour of its budget (10 an hour, 60 with the \
            frequent-updates entitlement). Push tokens are in `widgethost push tokens`.

            Example:
              widgethost activities
                a1  com.example.pizza  PizzaDeliveryAttributes  active  started 12m ago  pushes 3/10
            """)

    @Option(name: .long, help: ArgumentHelp("Only this app's activities.", valueName: "app"))
    var app: String?

    @Flag(name: .long, help: "Include dismissed activities (kept for a day).")
    var all = false

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: ActivityListResult = try client.call(
                .activityList, params: ActivityListParams(app: app, all: all ? true : nil))
            if connection.json { return try Console.outputJSON(result) }
            guard !result.activities.isEmpty else {
                return Console.output("No Live Activities; an app starts one with Activity.request (e.g. `pizza start`).")
            }
            let time = TimeText(now: result.now)
            Console.output(result.activities.map { ActivityText.line($0, now: result.now, time: time) }.joined(separator: "\n"))
        }
    }
}

struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Show one Live Activity's whole story: every update, push, throttle and refusal.",
        discussion: """
            Example:
              widgethost activity a1
            """)

    @Argument(help: ArgumentHelp("The activity's id, as `widgethost activities` lists it.", valueName: "id"))
    var id: String

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let detail: ActivityDetailResult = try client.call(.activityGet, params: ActivityIDParams(id: id))
            if connection.json { return try Console.outputJSON(detail) }
            Console.output(ActivityText.story(detail))
        }
    }
}
