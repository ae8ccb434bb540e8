import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRendering

struct LockScreenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lockscreen",
        abstract: "Draw the Lock Screen: Live Activities, the lock screen widgets, the Dynamic Island in each presentation.",
        discussion: """
            Asks the daemon for the Live Activities still on the Lock Screen and the views their \
            extension last drew (`activity/get`), and for the accessory widgets the user added \
            (accessoryCircular, accessoryRectangular, accessoryInline), and draws an iPhone Lock \
            Screen (393 × 852 pt): the Dynamic Island at the top (bare, one activity compact, two \
            minimal), the time, the widgets, then each activity's Lock Screen view (ongoing, then \
            ended until dismissed). Beside it, each ongoing activity's Dynamic Island in every \
            presentation: compact, minimal and expanded. Sizes are Apple's (docs/rules.md, "Live \
            Activity views"). Timers count on by themselves in a browser.

            With --json, prints what is drawn where (and the daemon's views) instead of, or as well as, a file.
            PNG output needs headless Chromium (Debian: apt-get install chromium).

            Examples:
              widgethost lockscreen --html lock.html
              widgethost lockscreen --dark --png lock.png
              widgethost lockscreen --json
            """)

    @Option(help: ArgumentHelp("The display instant (RFC 3339); default: now.", valueName: "date"))
    var at: String?

    @Flag(help: "Draw in dark appearance.")
    var dark = false

    @Option(help: ArgumentHelp("Write an HTML page (no network, timers count live in a browser).", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write a PNG at 3 pixels per point, through headless Chromium.", valueName: "file"))
    var png: String?

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if let at, RFC3339.parse(at) == nil {
            throw ValidationError("--at \(at) is not an RFC 3339 date; write it like 2026-02-15T08:00:00Z")
        }
        if html != nil && png != nil { throw ValidationError("give at most one of --html FILE and --png FILE") }
        if html == nil && png == nil && !connection.json {
            throw ValidationError("give --html FILE, --png FILE or --json")
        }
    }

    func run() throws {
        let instant = at.flatMap(RFC3339.parse) ?? Date()
        let (activities, widgets) = try connection.withClient { client in
            try (Self.activities(client), Self.accessoryWidgets(client, at: instant))
        }
        var options = RenderOptions(at: instant, colorScheme: dark ? .dark : .light)
        let drawn = widgets.map { widget in
            options.widgetID = widget.info.id
            options.family = widget.info.family
            options.redacted = widget.redacted
            return WidgetRenderer.render(widget.entry?.view, content: widget.entry?.content ?? .null, options: options)
        }
        options.widgetID = nil
        options.family = nil
        options.redacted = false
        let page = LockScreen.page(
            activities: activities, widgets: drawn, options: options, title: "Lock Screen at \(RFC3339.format(instant))")
        if connection.json {
            try Console.outputJSON(LockScreenSummary(at: instant, activities: activities, widgets: widgets.map(\.info)))
        }
        for note in page.notes { Console.error("note: \(TerminalText.safe(note))") }
        for activity in activities where activity.views == nil && activity.isOnLockScreen {
            Console.error("note: \(activity.id) has no views yet (its extension has not drawn it; see widgethost activity \(activity.id))")
        }
        guard html != nil || png != nil else { return }
        try RenderFiles.write(
            page: page.html, width: page.width, height: page.height, scale: 3, html: html, png: png,
            announce: !connection.json)
    }

    /// The activities still on the Lock Screen, with their views.
    static func activities(_ client: ControlClient) throws -> [LockScreenActivity] {
        let list: ActivityListResult = try client.call(.activityList, params: ActivityListParams())
        return try list.activities.filter { $0.state != .dismissed }.map { info in
            let detail: ActivityDetailResult = try client.call(.activityGet, params: ActivityIDParams(id: info.id))
            return LockScreenActivity(
                id: info.id, app: info.app, attributesType: info.attributesType, state: detail.activity.state,
                views: detail.views)
        }
    }

    struct AccessoryWidget {
        var info: WidgetInfo
        var entry: TimelineEntryPayload?
        var redacted: Bool
    }

    /// The lock screen widgets and the entry each shows now.
    static func accessoryWidgets(_ client: ControlClient, at instant: Date) throws -> [AccessoryWidget] {
        let status: StatusResult = try client.call(.status, params: StatusParams())
        return try status.widgets.map(\.widget).filter { $0.family.rawValue.hasPrefix("accessory") }.map { info in
            let timeline: TimelineResult = try client.call(.timeline, params: WidgetIDParams(id: info.id))
            let shown = CurrentEntryRule.entry(
                at: instant, entries: timeline.entries, previous: timeline.previousEntry, placeholder: timeline.placeholder)
            return AccessoryWidget(info: info, entry: shown.entry, redacted: shown.source == .placeholder)
        }
    }
}

/// `widgethost lockscreen --json`: what is drawn where.
struct LockScreenSummary: Encodable {
    struct Activity: Encodable {
        var id: String
        var app: String
        var attributesType: String
        var state: ActivityStateName
        /// `lockScreen` and, while ongoing, `dynamicIsland`.
        var shownOn: [String]
        /// In the island at the top: `compact`, `minimal` or absent.
        var island: String?
        var views: ActivityViews?
    }

    var at: Date
    var activities: [Activity]
    var widgets: [WidgetInfo]

    init(at: Date, activities: [LockScreenActivity], widgets: [WidgetInfo]) {
        self.at = at
        let ongoing = activities.filter(\.isInDynamicIsland).map(\.id)
        self.activities = activities.map { activity in
            var island: String?
            if let index = ongoing.firstIndex(of: activity.id), index < 2 { island = ongoing.count == 1 ? "compact" : "minimal" }
            return Activity(
                id: activity.id, app: activity.app, attributesType: activity.attributesType, state: activity.state,
                shownOn: ["lockScreen"] + (activity.isInDynamicIsland ? ["dynamicIsland"] : []), island: island,
                views: activity.views)
        }
        self.widgets = widgets
    }
}
