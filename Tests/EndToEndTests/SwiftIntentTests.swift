import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol

/// App Intents written with the Swift SDK, against the real daemon: Widgy's configurable widget
/// (each instance picks a saved design) and LucidPal's "Done" button, as the assembled example
/// bundles (`scripts/assemble-plugins.sh`).
@Suite("App Intents with the Swift SDK, end to end", .serialized)
struct SwiftIntentTests {
    static let examples = ExampleBundle.assembled.path
    static let products = ExampleBundle.products

    static func daemon() throws -> RealDaemon {
        for name in ["Widgy", "LucidPal"] {
            try #require(
                FileManager.default.fileExists(atPath: "\(examples)/\(name).appex"),
                "\(examples)/\(name).appex is missing; run scripts/assemble-plugins.sh")
        }
        return try RealDaemon(extraPluginPaths: [examples])
    }

    /// An example's app command, with its App Group in the daemon's app group root.
    @discardableResult
    static func app(_ name: String, group: String, _ daemon: RealDaemon, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = products.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "TZ": "UTC", "WIDGETHOST_SOCKET": daemon.socket,
            "WIDGETHOST_APP_GROUPS": "\(group)=\(daemon.directory)/groups/\(group)",
        ]
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(name) \(arguments): \(err)")
        return out
    }

    /// The texts of the widget's current entry, once one from a timeline satisfies `done`.
    static func texts(_ client: ControlClient, _ id: String, until done: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(15)
        var texts: [String] = []
        repeat {
            let status: StatusResult = try client.call(.status, params: StatusParams(id: id))
            let current = status.widgets.first?.currentEntry
            texts = current?.source == .timeline ? current?.entry?.view?.root.allTexts ?? [] : []
            if done(texts) { return texts }
            usleep(20_000)
        } while Date() < deadline
        return texts
    }

    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ControlClientError {
            return error.rpcError?.message
        } catch {
            return "\(error)"
        }
    }

    @Test("Widgy: two instances show the designs their users picked; a configuration edit reloads at once, exempt, with the new pick")
    func widgyConfiguration() throws {
        let daemon = try Self.daemon()
        let client = try ControlClient(socketPath: daemon.socket)
        let designs = daemon.directory + "/designs"
        try FileManager.default.createDirectory(atPath: designs, withIntermediateDirectories: true)
        for id in ["garden", "kitchen"] {
            let file = "\(designs)/\(id).json"
            try #"""
            {"schema_version": "1.0", "widget_id": "\#(id)", "name": "The \#(id)", "supported_families": ["systemSmall"],
             "layout": {"type": "Text", "content": "\#(id) design"}}
            """#.write(toFile: file, atomically: true, encoding: .utf8)
            try Self.app("widgy", group: "group.com.widgy", daemon, ["save", file])
        }
        let options: IntentOptionsResult = try client.call(.options, params: OptionsParams(kind: "WidgyWidget", parameter: "widget"))
        #expect(options.options == [.init(id: "kitchen", title: "The kitchen"), .init(id: "garden", title: "The garden")])
        #expect(options.defaultId == "kitchen")

        let w1: AddWidgetResult = try client.call(
            .addWidget, params: AddWidgetParams(kind: "WidgyWidget", family: .systemSmall, configuration: ["widget": "garden"]))
        let w2: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WidgyWidget", family: .systemSmall))
        #expect(w1.widget.configuration == ["widget": "garden"] && w2.widget.configuration == [:])
        #expect(try Self.texts(client, w1.widget.id) { $0 == ["garden design"] } == ["garden design"])
        // Nothing picked: the most recently saved design.
        #expect(try Self.texts(client, w2.widget.id) { $0 == ["kitchen design"] } == ["kitchen design"])

        let edited: ConfigureWidgetResult = try client.call(
            .configureWidget, params: ConfigureWidgetParams(id: w2.widget.id, configuration: ["widget": "garden"]))
        #expect(edited.reload.outcome == .started && !edited.reload.budgeted)
        #expect(edited.widget.configuration == ["widget": "garden"])
        #expect(try Self.texts(client, w2.widget.id) { $0 == ["garden design"] } == ["garden design"])
        let all: [WidgetInfo] = try client.call(.getCurrentConfigurations, params: GetCurrentConfigurationsParams())
        #expect(all.map(\.configuration) == [["widget": "garden"], ["widget": "garden"]])

        #expect(
            Self.refusal {
                let _: ConfigureWidgetResult = try client.call(
                    .configureWidget, params: ConfigureWidgetParams(id: w1.widget.id, configuration: ["widget": "attic"]))
            } == "WidgyWidget: \"attic\" is not a choice for widget; choices are kitchen (The kitchen), garden (The garden)")
    }

    @Test("LucidPal: Done runs LogHabitIntent once; the tapped widget reloads at once (exempt, appIntent) and shows it; the other follows the intent's WidgetCenter call")
    func lucidPalDone() throws {
        let daemon = try Self.daemon()
        let client = try ControlClient(socketPath: daemon.socket)
        try Self.app("lucidpal", group: "group.app.lucidpal", daemon, ["habits", "--done", "3", "--total", "5"])
        let w1: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "LucidPalWidget", family: .systemSmall))
        let w2: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "LucidPalWidget", family: .systemMedium))
        #expect(try Self.texts(client, w1.widget.id) { $0.contains("3/5") }.contains("Done"))
        #expect(try Self.texts(client, w2.widget.id) { $0.contains("3/5") }.contains("3/5"))

        // The app on screen reloads its widgets (exempt, foreground): the first notices, and the last.
        let poke = {
            let _: ReloadResult = try client.call(.reloadTimelines, params: ReloadTimelinesParams(kind: "LucidPalWidget", foreground: true))
        }
        let events = try IntentMisbehaviourTests.EventLog(socket: daemon.socket, poke: poke)
        let tapped: TapResult = try client.call(.tap, params: TapParams(id: w1.widget.id, button: "b1"))
        #expect(tapped.outcome == .succeeded, "\(tapped)")
        #expect(tapped.intent.type == "LucidPalShared.LogHabitIntent")
        #expect(tapped.reload?.outcome == .started && tapped.reload?.budgeted == false)
        #expect(try Self.texts(client, w1.widget.id) { $0.contains("4/5") }.contains("4/5"))
        #expect(try Self.texts(client, w2.widget.id) { $0.contains("4/5") }.contains("4/5"))

        let notices = try events.stop(poke: poke)
        let byIntent = notices.compactMap { notice -> String? in
            if case .reloadStarted(let widget, _, .exempt(.appIntent), _) = notice { widget.id } else { nil }
        }
        // The tapped widget's own reload first; the other's because the intent called WidgetCenter
        // for the kind (without that call it would not reload: IntentTests.tapReloadsTheTappedWidget).
        #expect(byIntent == [w1.widget.id, w2.widget.id], "\(notices)")
        let performed = notices.filter { if case .intentFinished(_, "w1", nil, _, "Log a habit", .succeeded, _, _) = $0 { true } else { false } }
        #expect(performed.count == 1)
    }
}
