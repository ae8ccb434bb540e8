import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostProtocol
import WidgetHostReloadArguments

struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Ask for new timelines, as an app's WidgetCenter.shared.reloadTimelines(ofKind:) does.",
        discussion: """
            `reload --kind K` is WidgetCenter.shared.reloadTimelines(ofKind: K): every instance of \
            that kind reloads. `reload --all --app A` is reloadAllTimelines() from app A: every \
            instance of that app's widgets reloads.

            Such a reload is budgeted: it counts against the widget's daily budget (40–70 \
            reloads in any 24 hours) and waits for the 5-minute minimum interval and any failure \
            backoff. --foreground says the app is on screen, which makes it exempt, as on a device.

            One line per instance says what happened: `started` (the extension is asked for \
            a timeline now), `coalesced` (merged into a reload that is already waiting) or \
            `deferred until TIME (reason)`. The reasons: budgetExhausted (B reloads already \
            started in the last 24 hours), minInterval (too soon after the last reload), \
            backoff (the widget failed recently), reloadInProgress (one more reload follows \
            the running one).

            --app is needed only when two apps define the same kind (the error lists them); \
            for --all it defaults to $WIDGETHOST_APP.

            Examples:
              widgethost reload --kind BirthdayHomeWidget
                w1  BirthdayHomeWidget  started (budgeted, 1 of 70 used)
              widgethost reload --kind BirthdayHomeWidget
                w1  BirthdayHomeWidget  deferred until 12:05:00 (minInterval)
              widgethost reload --all --app com.birthdayreminders --foreground
            """
    )

    @Option(name: .long, help: ArgumentHelp("Reload every instance of this widget kind.", valueName: "kind"))
    var kind: String?

    @Flag(name: .long, help: "Reload every widget of the app given by --app (reloadAllTimelines).")
    var all = false

    @Option(name: .long, help: ArgumentHelp("The calling app's id, e.g. com.birthdayreminders.", valueName: "app"))
    var app: String?

    @Flag(name: .long, help: "The app is in the foreground: the reload is exempt from the budget.")
    var foreground = false

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        switch (kind, all) {
        case (nil, false):
            throw ValidationError("say what to reload: --kind KIND, or --all --app APP")
        case (_?, true):
            throw ValidationError("--kind and --all exclude each other: --kind reloads one kind, --all every widget of an app")
        case (nil, true) where resolvedApp == nil:
            throw ValidationError("--all needs the app whose widgets to reload: --app APP (or set WIDGETHOST_APP)")
        default:
            break
        }
    }

    /// --app, else $WIDGETHOST_APP for --all (the fast path's rule too).
    private var resolvedApp: String? {
        ReloadArguments.resolvedApp(app, all: all, environment: { ProcessInfo.processInfo.environment[$0] })
    }

    func run() throws {
        try Self.perform(kind: kind, app: resolvedApp, foreground: foreground, connection: connection.settings)
    }

    /// The request and its lines: this command's `run`, and `ReloadFastPath`'s. `resumed`: the
    /// `widgethost` front sent the request (id 1) already; only its reply is read here.
    static func perform(
        kind: String?, app resolvedApp: String?, foreground: Bool, connection: ConnectionSettings,
        resumed: ResumedRequest? = nil
    ) throws {
        let foreground: Bool? = foreground ? true : nil
        try connection.withClient(resumed: resumed) { client in
            let result: ReloadResult
            if let resumed {
                result = try client.reply(
                    to: 1, of: kind == nil ? .reloadAllTimelines : .reloadTimelines, within: resumed.timeLeft)
            } else if let kind {
                result = try client.call(
                    .reloadTimelines, params: ReloadTimelinesParams(kind: kind, app: resolvedApp, foreground: foreground))
            } else {
                result = try client.call(
                    .reloadAllTimelines, params: ReloadAllTimelinesParams(app: resolvedApp ?? "", foreground: foreground))
            }
            if connection.json { return try Console.outputJSON(result) }
            guard !result.outcomes.isEmpty else {
                let what = kind.map { "of kind \($0)" } ?? "of app \(resolvedApp ?? "")"
                return Console.output(
                    "No widgets \(what) to reload; add one with `widgethost add \(kind ?? "KIND") --family systemSmall`.")
            }
            // One call: the reply carries each instance's budget and the daemon's (maybe virtual) now.
            Console.output(ReloadText.lines(for: result, time: TimeText(now: result.now ?? Date())))
        }
    }
}
