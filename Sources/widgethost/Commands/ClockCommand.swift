import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostHarness
import WidgetHostProtocol

struct ClockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "Show the daemon's clock, or advance a daemon started with --virtual-clock.",
        discussion: """
            widgethostd --virtual-clock START runs the host's rules on a virtual clock: it runs \
            at the real rate until you move it. Moving it handles every deadline on the way \
            (policy reloads, deferrals ending, entry changes) at its own instant, waiting for \
            extension requests that are running. Extensions see the virtual time (libfaketime).

            Examples:
              widgethost clock                     the daemon's now
              widgethost clock advance 2h          two hours later
              widgethost clock run-until 18:00     to the next 18:00 (local time)
              widgethost clock run-until 2026-02-16T00:10:00Z
            """,
        subcommands: [Show.self, Advance.self, RunUntil.self],
        defaultSubcommand: Show.self
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the daemon's now.")
        @OptionGroup var connection: ConnectionOptions
        func run() throws { try ClockCommand.call(ClockParams(), connection: connection) }
    }

    struct Advance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "advance", abstract: "Move the virtual clock forward by a duration (30s, 10m, 2h, 1d).")
        @Argument(help: ArgumentHelp("How far: 30s, 10m, 2h, 1d, 1h30m.", valueName: "duration"))
        var duration: String
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            guard let seconds = HarnessTime.duration(duration), seconds >= 0 else {
                throw ValidationError("\"\(duration)\" is not a duration; write a number and a unit, as in 2h or 30m")
            }
        }

        func run() throws {
            try ClockCommand.call(ClockParams(advance: HarnessTime.duration(duration)), connection: connection)
        }
    }

    struct RunUntil: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run-until",
            abstract: "Move the virtual clock to the next HH:MM (local time) or to an RFC 3339 instant.")
        @Argument(help: ArgumentHelp("18:00, or 2026-02-16T00:10:00Z.", valueName: "time"))
        var time: String
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            guard RFC3339.parse(time) != nil || HarnessTime.timeOfDay(time) != nil else {
                throw ValidationError("\"\(time)\" is neither a time of day (18:00) nor an RFC 3339 instant")
            }
        }

        func run() throws {
            if let instant = RFC3339.parse(time) {
                return try ClockCommand.call(ClockParams(until: instant), connection: connection)
            }
            try connection.withClient { client in
                let current: ClockResult = try client.call(.clock, params: ClockParams())
                let until = HarnessTime.next(timeOfDay: HarnessTime.timeOfDay(time)!, after: current.now, in: .current)
                try ClockCommand.show(try client.call(.clock, params: ClockParams(until: until)), connection: connection)
            }
        }
    }

    static func call(_ params: ClockParams, connection: ConnectionOptions) throws {
        try connection.withClient { client in
            try show(try client.call(.clock, params: params), connection: connection)
        }
    }

    static func show(_ result: ClockResult, connection: ConnectionOptions) throws {
        if connection.json { return try Console.outputJSON(result) }
        var line = "\(RFC3339.format(result.now)) (\(result.virtual ? "virtual clock" : "wall clock"))"
        if result.deadlinesHandled > 0 { line += ", \(result.deadlinesHandled) deadline(s) handled on the way" }
        if let next = result.nextDeadline { line += "; next deadline \(RFC3339.format(next))" }
        Console.output(line)
    }
}
