import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The pizza app and its PizzaDelivery.appex against the real daemon: the daemon asks the
/// extension for the activity's views (`activity/render`) at each change and keeps them.
@Suite("Live Activity views, real daemon and the PizzaDelivery bundle", .serialized)
struct ActivityViewsEndToEndTests {
    /// The activity's story and views, as `widgethost activity ID --json` prints them.
    static func detail(_ daemon: RealDaemon, _ id: String) throws -> ActivityDetailResult {
        let shown = try daemon.cli("activity", id, "--json")
        return try WireCoding.decode(ActivityDetailResult.self, from: Data(shown.stdout.utf8))
    }

    /// The JSON of one presentation's archive.
    static func text(_ views: ActivityViews?, _ presentation: ActivityPresentation) -> String {
        guard let archive = views?.result.view(for: presentation), let data = try? WireCoding.encode(archive) else {
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits (up to 10 s) until the activity's views satisfy `done`.
    static func views(
        _ daemon: RealDaemon, _ id: String, until done: (ActivityViews?) -> Bool
    ) throws -> ActivityViews? {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let views = try detail(daemon, id).views
            if done(views) || Date() > deadline { return views }
            usleep(20_000)
        }
    }

    @Test("Started, updated, pushed, ended and dismissed: the extension draws each presentation, and dismissal removes them")
    func pizzaViews() throws {
        let plugins = try ExampleBundle.pluginDirectory(holding: "PizzaDelivery")
        defer { try? FileManager.default.removeItem(atPath: plugins) }
        let daemon = try RealDaemon(config: "[activities]\nmax_lock_screen = \"2s\"\n", extraPluginPaths: [plugins])
        let extensions = try daemon.cli("extensions", "--json")
        let catalog = try WireCoding.decode(ExtensionsResult.self, from: Data(extensions.stdout.utf8))
        #expect(catalog.loaded.contains { $0.id == "com.example.pizza.widget" }, "\(extensions.stdout) \(catalog.skipped)")

        let started = try PizzaAppTests.pizza(daemon, "start", "--token")
        #expect(started.status == 0, "\(started.stderr)")
        let words = started.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let id = try #require(words.first)
        let token = try #require(words.last)

        let first = try Self.views(daemon, id) { $0 != nil }
        let lockScreen = Self.text(first, .lockScreen)
        #expect(lockScreen.contains("Order #12345 · Pepperoni"), "\(lockScreen)")
        #expect(lockScreen.contains("Your pizza is being prepared"))
        #expect(Self.text(first, .compactLeading).contains("timer"))
        #expect(Self.text(first, .compactTrailing).contains(#""style":"timer""#))
        #expect(Self.text(first, .minimal).contains("timer"))
        #expect(first?.result.expanded.map(\.position) == ["leading", "trailing", "center", "bottom"])
        #expect(Self.text(first, .expandedCenter).contains("Pepperoni #12345"))
        #expect(first?.isStale == false)

        // A local update from the app.
        let updated = try PizzaAppTests.pizza(daemon, "update", id, "--driver", "John")
        #expect(updated.status == 0, "\(updated.stderr)")
        let onTheWay = try Self.views(daemon, id) { Self.text($0, .lockScreen).contains("John is on the way") }
        #expect(Self.text(onTheWay, .lockScreen).contains("John is on the way"))
        #expect(Self.text(onTheWay, .expandedBottom).contains("John is on the way"))

        // A push.
        let state = daemon.directory + "/delivered.json"
        try #"{"status":"delivered","estimatedDeliveryTime":"2026-02-15T12:00:00Z","driverName":"Ada"}"#.write(
            toFile: state, atomically: true, encoding: .utf8)
        let pushed = try daemon.cli("push", "activity", token, "--content-state", state)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let delivered = try Self.views(daemon, id) { Self.text($0, .lockScreen).contains("Delivered") }
        #expect(Self.text(delivered, .lockScreen).contains("Delivered"))

        // Ended: still on the Lock Screen with its final content; dismissed 2 s later, without views.
        let ended = try PizzaAppTests.pizza(daemon, "end", id)
        #expect(ended.status == 0, "\(ended.stderr)")
        let story = try Self.detail(daemon, id)
        #expect(story.activity.state == .ended || story.activity.state == .dismissed)
        let gone = try Self.views(daemon, id) { $0 == nil }
        #expect(gone == nil)
        #expect(try Self.detail(daemon, id).activity.state == .dismissed)
        #expect(try Self.detail(daemon, id).history.filter { $0.event == "refused" }.isEmpty)
    }

    @Test("widgethost lockscreen draws the activity's Lock Screen view and its Dynamic Island; --json says where")
    func lockscreenCommand() throws {
        let plugins = try ExampleBundle.pluginDirectory(holding: "PizzaDelivery")
        defer { try? FileManager.default.removeItem(atPath: plugins) }
        let daemon = try RealDaemon(extraPluginPaths: [plugins])
        let started = try PizzaAppTests.pizza(daemon, "start")
        #expect(started.status == 0, "\(started.stderr)")
        _ = try Self.views(daemon, "a1") { $0 != nil }

        let page = daemon.directory + "/lock.html"
        let drawn = try daemon.cli("lockscreen", "--html", page, "--json")
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("Order #12345 · Pepperoni"))
        #expect(html.contains("Your pizza is being prepared"))
        for presentation in ActivityPresentation.allCases {
            #expect(html.contains("data-wh-presentation=\"\(presentation.rawValue)\""), "\(presentation)")
        }
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(drawn.stdout.utf8)) as? [String: Any])
        let activities = try #require(summary["activities"] as? [[String: Any]])
        #expect(activities.map { $0["id"] as? String } == ["a1"])
        #expect(activities.first?["island"] as? String == "compact")
        #expect(activities.first?["shownOn"] as? [String] == ["lockScreen", "dynamicIsland"])

        let ended = try PizzaAppTests.pizza(daemon, "end", "a1")
        #expect(ended.status == 0, "\(ended.stderr)")
        let afterEnd = try daemon.cli("lockscreen", "--json")
        let endedSummary = try #require(try JSONSerialization.jsonObject(with: Data(afterEnd.stdout.utf8)) as? [String: Any])
        let endedActivities = try #require(endedSummary["activities"] as? [[String: Any]])
        #expect(endedActivities.first?["shownOn"] as? [String] == ["lockScreen"])
        #expect(endedActivities.first?["island"] == nil)

        let usage = try daemon.cli("lockscreen")
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("give --html FILE, --png FILE or --json"))
    }

    @Test("An extension that answers activity/render with a bad reply: the story says why, the activity goes on")
    func badViews() throws {
        // The docs' Python app starts a PizzaDeliveryAttributes activity whose state has no
        // estimatedDeliveryTime: the pizza extension cannot decode it and answers -32602.
        let plugins = try ExampleBundle.pluginDirectory(holding: "PizzaDelivery")
        defer { try? FileManager.default.removeItem(atPath: plugins) }
        let daemon = try RealDaemon(extraPluginPaths: [plugins])
        let (id, _) = try LiveActivityTests.runDocsApp(daemon)
        let deadline = Date().addingTimeInterval(10)
        var story = try Self.detail(daemon, id)
        while Date() < deadline, !story.history.contains(where: { $0.event == "refused" }) {
            usleep(20_000)
            story = try Self.detail(daemon, id)
        }
        let refusal = try #require(story.history.first { $0.event == "refused" })
        #expect(refusal.detail.contains("its views were not taken"), "\(refusal.detail)")
        #expect(refusal.detail.contains("estimatedDeliveryTime"), "\(refusal.detail)")
        #expect(story.views == nil)
        #expect(story.activity.state == .active)
    }
}
