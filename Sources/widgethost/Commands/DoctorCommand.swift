import ArgumentParser
import Foundation
import WidgetHostDoctor
import WidgetHostProtocol

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a widget extension bundle against the pitfalls, before a device finds them.",
        discussion: """
            Runs without a daemon. Reads BUNDLE as widgethostd does (Info.plist, the WidgetKit \
            extension point, the executable, the entitlements), checks that its app group \
            entitlement lists the group the app writes to, then starts the executable once per \
            request, as the host does after an idle stop, for every kind and family it lists:
              - placeholder answers within 1 s without touching app group data
                (the containers are seeded with the sample data and watched with inotify);
              - snapshot and timeline answer within 5 s, with margin (the time is reported);
              - peak footprint (RssAnon + VmSwap) under 30 MiB, with margin (reported);
              - entries in date order, at most 30 of them;
              - the reload policy asks for reloads 15 minutes or more apart (below 5, it fails);
              - the timeline still works with an empty app group container (first launch).
            Each finding says what was found and how to fix it; the summary reads as a pre-ship \
            checklist. Sample data: NAME.appex/Resources/AppGroups/GROUP/… is copied into GROUP's \
            container before each run (see docs/porting.md).

            Exit status: 0 nothing failed (warnings allowed, unless --strict); 1 a check failed; \
            64 usage error; 69 --now without libfaketime installed.

            Examples:
              widgethost doctor .build/examples/BirthdayReminders.appex
              widgethost doctor MyWidget.appex --app-group group.com.example.app
              widgethost doctor MyWidget.appex --now 2026-02-15T23:58:00Z --json | jq '.findings[] | select(.verdict != "pass")'
            """
    )

    @Argument(help: ArgumentHelp("The extension bundle, a NAME.appex directory.", valueName: "bundle"), completion: .directory)
    var bundle: String

    @Option(
        name: .customLong("app-group"),
        help: ArgumentHelp(
            "An app group the containing app writes to; the entitlements must list it. Repeat for several.",
            valueName: "id"))
    var appGroups: [String] = []

    @Option(
        help: ArgumentHelp(
            "Judge timelines at this instant (RFC 3339): sent as `now`, and the extension's own clock through "
                + "libfaketime, so a policy aimed at a time of day gives the same answer in every CI run.",
            valueName: "date"))
    var now: String?

    @Flag(help: "Fail on warnings too.")
    var strict = false

    @Flag(help: "Print the report as JSON with sorted keys, for scripts and CI.")
    var json = false

    func validate() throws {
        if let now, RFC3339.parse(now) == nil {
            throw ValidationError("--now \(now) is not an RFC 3339 date; write it like 2026-02-15T08:00:00Z")
        }
        for group in appGroups where !group.hasPrefix("group.") {
            throw ValidationError("--app-group \(group) does not start with \"group.\"; app group ids look like group.com.example.app")
        }
    }

    func run() throws {
        var options = Doctor.Options()
        options.appGroups = appGroups
        options.now = now.flatMap(RFC3339.parse)
        let report: DoctorReport
        do {
            report = try Doctor(options: options).examine(bundleAt: URL(fileURLWithPath: bundle))
        } catch {
            Console.error("widgethost: \(error)")
            throw ExitCode(69)
        }
        if json {
            try Console.outputJSON(report)
        } else {
            Console.output(report.text)
        }
        if !report.passed || (strict && report.summary.warn > 0) { throw ExitCode(1) }
    }
}
