import ArgumentParser
import Foundation
import WidgetHostClient
import WidgetHostProtocol

struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Play APNs: push to a Live Activity, start one, or push a widget reload.",
        subcommands: [PushActivityCommand.self, PushWidgetCommand.self, PushTokensCommand.self])
}

struct PushActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Send a Live Activity push to TOKEN, as a provider sends one through APNs.",
        discussion: """
            Priority 10 pushes count against the activity's hourly budget (10, or 60 with the \
            frequent-updates entitlement); one over it is dropped, as on a device, and answered \
            `throttled until TIME (pushBudgetExhausted)`. Priority 5 pushes are not budgeted. \
            A push whose --timestamp is older than the last applied update's is answered \
            `ignored (outdatedTimestamp)`: ActivityKit ignores it. \
            --event start sends to a push-to-start token (`widgethost push tokens`) and needs \
            --attributes-type and --attributes.

            Bad pushes get APNs' reasons: BadDeviceToken, BadPriority, PayloadTooLarge, \
            PayloadEmpty, Unregistered (the activity ended); BadPayload and MissingContentState \
            for what APNs takes but a device drops.

            Examples:
              widgethost push activity 3f2a…c1 --priority 10 --content-state state.json
                a1  update delivered (priority 10, 4 of 10 in the last hour)
              widgethost push activity 3f2a…c1 --event end --dismissal-date 2026-02-15T13:00:00Z
              widgethost push activity 3f2a…c1 --payload apns.json
            """)

    @Argument(help: ArgumentHelp("The activity's push token (hex), or a push-to-start token.", valueName: "token"))
    var token: String

    @Option(name: .long, help: "apns-priority: 5 (not budgeted) or 10 (budgeted).")
    var priority = 10

    @Option(name: .long, help: ArgumentHelp("update, end or start.", valueName: "event"))
    var event = "update"

    @Option(
        name: .customLong("content-state"), help: ArgumentHelp("A file with the ContentState as JSON (- for stdin).", valueName: "file"),
        completion: .file())
    var contentState: String?

    @Option(name: .customLong("stale-date"), help: ArgumentHelp("RFC 3339 date when the content goes stale.", valueName: "date"))
    var staleDate: String?

    @Option(
        name: .customLong("dismissal-date"), help: ArgumentHelp("For --event end: RFC 3339 date it leaves the Lock Screen.", valueName: "date"))
    var dismissalDate: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "RFC 3339 date the content was generated (aps.timestamp; default: now). A push older than the last applied update is ignored, as ActivityKit ignores it.",
            valueName: "date"))
    var timestamp: String?

    @Option(name: .long, help: ArgumentHelp("An alert: \"TITLE|BODY\".", valueName: "alert"))
    var alert: String?

    @Option(name: .customLong("attributes-type"), help: ArgumentHelp("For --event start: the ActivityAttributes type.", valueName: "type"))
    var attributesType: String?

    @Option(name: .long, help: ArgumentHelp("For --event start: a file with the attributes as JSON.", valueName: "file"), completion: .file())
    var attributes: String?

    @Option(
        name: .long, help: ArgumentHelp("A file with the whole APNs body ({\"aps\":{…}}); the other options are ignored.", valueName: "file"),
        completion: .file())
    var payload: String?

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let (body, bytes) = try buildPayload()
        try connection.withClient { client in
            let result: ActivityPushResult = try client.call(
                .pushActivity, params: ActivityPushParams(token: token, priority: priority, payload: body, payloadBytes: bytes))
            if connection.json { return try Console.outputJSON(result) }
            Console.output(ActivityText.push(result, priority: priority, time: TimeText(now: Date())))
        }
    }

    private func buildPayload() throws -> (JSONValue, Int?) {
        if let payload {
            let data = try JSONFile.read(payload, what: "--payload")
            return (try JSONFile.parse(data, what: "--payload \(payload)"), data.count)
        }
        let stamp = try timestamp.map { try seconds($0, "--timestamp") } ?? Int(Date().timeIntervalSince1970)
        var aps: [String: JSONValue] = ["event": .string(event), "timestamp": .integer(stamp)]
        if let contentState {
            aps["content-state"] = try JSONFile.parse(try JSONFile.read(contentState, what: "--content-state"), what: "--content-state \(contentState)")
        }
        if let staleDate { aps["stale-date"] = .integer(try seconds(staleDate, "--stale-date")) }
        if let dismissalDate { aps["dismissal-date"] = .integer(try seconds(dismissalDate, "--dismissal-date")) }
        if let alert {
            let parts = alert.split(separator: "|", maxSplits: 1).map(String.init)
            aps["alert"] = ["title": .string(parts[0]), "body": .string(parts.count > 1 ? parts[1] : "")]
        }
        if let attributesType { aps["attributes-type"] = .string(attributesType) }
        if let attributes {
            aps["attributes"] = try JSONFile.parse(try JSONFile.read(attributes, what: "--attributes"), what: "--attributes \(attributes)")
        }
        return (.object(["aps": .object(aps)]), nil)
    }

    private func seconds(_ text: String, _ option: String) throws -> Int {
        guard let date = RFC3339.parse(text) else {
            throw ValidationError("\(option) \(text) is not an RFC 3339 date (e.g. 2026-02-15T13:00:00Z)")
        }
        return Int(date.timeIntervalSince1970)
    }
}

struct PushWidgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget",
        abstract: "Send a WidgetKit push (WidgetPushHandler) to TOKEN: one budgeted reload per widget of its kind.",
        discussion: """
            The body is {"aps":{"content-changed":true}} unless --payload gives one. Bad pushes \
            get APNs' reasons: BadDeviceToken, MissingDeviceToken, PayloadTooLarge (over 4 KB), \
            PayloadEmpty; BadPayload for a body WidgetKit would ignore.

            Example:
              widgethost push widget 9c0e…7d
                w1  BirthdayHomeWidget  started (budgeted, 2 of 70 used)
            """)

    @Argument(help: ArgumentHelp("The widget kind's push token (`widgethost push tokens`).", valueName: "token"))
    var token: String

    @Option(
        name: .long, help: ArgumentHelp("A file with the whole APNs body ({\"aps\":{\"content-changed\":true}}).", valueName: "file"),
        completion: .file())
    var payload: String?

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        var params = WidgetPushParams(token: token)
        if let payload {
            let data = try JSONFile.read(payload, what: "--payload")
            params.payload = try JSONFile.parse(data, what: "--payload \(payload)")
            params.payloadBytes = data.count
        }
        try connection.withClient { client in
            let result: WidgetPushResult = try client.call(.pushWidget, params: params)
            if connection.json { return try Console.outputJSON(result) }
            guard !result.reload.outcomes.isEmpty else {
                return Console.output("No \(result.kind) widgets to reload; the push reached none.")
            }
            Console.output(ReloadText.lines(for: result.reload, time: TimeText(now: result.reload.now ?? Date())))
        }
    }
}

struct PushTokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "List push tokens: each ongoing activity's, push-to-start tokens, and each widget kind's.")

    @Option(name: .long, help: ArgumentHelp("Only this app's tokens.", valueName: "app"))
    var app: String?

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.withClient { client in
            let result: PushTokensResult = try client.call(.pushTokens, params: PushTokensParams(app: app))
            if connection.json { return try Console.outputJSON(result) }
            var lines: [String] = []
            for token in result.activities {
                lines.append(TerminalText.safe("activity       \(token.activityId)  \(token.attributesType)  \(token.token)"))
            }
            for token in result.pushToStart {
                lines.append(TerminalText.safe("push-to-start  \(token.app)  \(token.attributesType)  \(token.token)"))
            }
            for token in result.widgets {
                lines.append(TerminalText.safe("widget         \(token.kind)  \(token.token)"))
            }
            Console.output(lines.isEmpty ? "No push tokens." : lines.joined(separator: "\n"))
        }
    }
}

/// Reading a JSON file given on the command line, with errors that name it.
enum JSONFile {
    static func read(_ path: String, what: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("\(what) \(path) cannot be read")
        }
        return data
    }

    static func parse(_ data: Data, what: String) throws -> JSONValue {
        do { return try WireCoding.decode(JSONValue.self, from: data) } catch {
            throw ValidationError("\(what) is not valid JSON: \(error.localizedDescription)")
        }
    }
}
