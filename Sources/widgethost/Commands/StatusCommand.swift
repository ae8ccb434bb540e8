import ArgumentParser
import WidgetHostClient
import WidgetHostProtocol

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each widget's budget, next reload and why, last outcome and current entry.",
        discussion: """
            What a device never tells you. Without an ID, one row per widget. BUDGET is the \
            budgeted reloads started in the last 24 hours over B, the daily budget (40–70, \
            higher the more the widget is viewed). NEXT RELOAD is when, and why: policy (the \
            timeline's .atEnd or .after date), requested (an app asked), retry (after a \
            failure); a gate in parentheses (budgetExhausted, minInterval, backoff) means it \
            is deferred. LAST OUTCOME is success, timedOut (over 5 s), memoryLimitExceeded \
            (over 30 MB), crashed, protocolError or invalidTimeline, with how long it took. \
            CURRENT ENTRY is where the entry on screen comes from, and its content. STALE is \
            how long a due or requested reload has been waiting.

            With an ID, everything about that widget: engagement, the budget ledger, the next \
            free slot, peak memory footprint, backoff and diagnostics.

            Then each extension's sandbox (limits.sandbox): the rules its processes start \
            under, and those this kernel cannot apply, with why (docs/security.md).

            Times are local, with the date when not today.

            Examples:
              widgethost status
              widgethost status w1
              widgethost status --json | jq '.widgets[].budget.used'
            """
    )

    @Argument(help: ArgumentHelp("A widget id (see `widgethost list`); all widgets when omitted.", valueName: "id"))
    var id: String?

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: StatusResult = try client.call(.status, params: StatusParams(id: id))
            if connection.json { return try Console.outputJSON(result) }
            let sandbox = SandboxText.section(result.extensions)
            if id != nil {
                let details = result.widgets.map { StatusText.detail($0, now: result.now) }
                let text = details.isEmpty ? "No widget \(id ?? "")." : details.joined(separator: "\n\n")
                return Console.output([text, sandbox].compactMap { $0 }.joined(separator: "\n\n"))
            }
            let widgets =
                result.widgets.isEmpty
                ? "No widgets; add one with `widgethost add KIND --family systemSmall`." : StatusText.table(result)
            Console.output([widgets, sandbox].compactMap { $0 }.joined(separator: "\n\n"))
        }
    }
}
