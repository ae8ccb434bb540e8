import Foundation
import Logging
import Testing
import WidgetHostDashboard
import WidgetHostProtocol

/// The dashboard's HTTP server for real, on a loopback port, in front of a fake host.
@Suite(.tags(.sockets)) struct DashboardServerTests {
    final class Running: @unchecked Sendable {
        let source: FakeSource
        let server: DashboardServer
        let base: String
        let token: String

        init(widgets: [WidgetStatus], keepAlive: Int64 = 30) throws {
            source = FakeSource(widgets: widgets)
            server = DashboardServer(
                host: "127.0.0.1", port: 0, source: source, logger: Logger(label: "test"), keepAlive: .seconds(keepAlive))
            let url = try server.start(on: source.eventLoop).wait()
            token = server.token.value
            base = "http://127.0.0.1:\(server.port ?? 0)"
            precondition(url == base + "/?token=" + token)
        }

        var bearer: [String: String] { ["Authorization": "Bearer \(token)"] }

        deinit {
            let stopped = server.stop(on: source.eventLoop)
            if !source.eventLoop.inEventLoop { _ = try? stopped.wait() }
        }

        /// What the source recorded, read on its loop.
        func calls() throws -> [(ControlMethod, JSONValue?)] {
            let source = self.source
            return try source.eventLoop.submit { source.calls }.wait()
        }
    }

    static let widgets = [
        FakeSource.status(id: "w1", kind: "BirthdayHomeWidget", family: .systemMedium),
        FakeSource.status(id: "w2", kind: "BirthdayLockScreenWidget", family: .accessoryRectangular),
    ]

    @Test("Every route needs the token: none gives 401, a wrong one too")
    func tokenRequired() throws {
        let running = try Running(widgets: Self.widgets)
        let probe = HTTPProbe()
        for path in ["/", "/events", "/metrics", "/api/status", "/widgets/w1"] {
            #expect(try probe.request(running.base + path).status == 401, "\(path)")
        }
        let wrong = try probe.request(running.base + "/", headers: ["Authorization": "Bearer " + String(repeating: "0", count: 64)])
        #expect(wrong.status == 401)
        #expect(wrong.body.contains("dashboard.url"))
    }

    @Test("?token= sets an HttpOnly, same-site cookie and redirects to the page without it; the cookie then opens it")
    func tokenInTheURL() throws {
        let running = try Running(widgets: Self.widgets)
        let probe = HTTPProbe()
        let first = try probe.request(running.base + "/?token=\(running.token)")
        #expect(first.status == 303)
        #expect(first.headers["location"] == "/")
        let cookie = try #require(first.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let page = try probe.request(running.base + "/", headers: ["Cookie": String(cookie.prefix { $0 != ";" })])
        #expect(page.status == 200)
        #expect(page.body.contains("data-wh-id=\"w1\""))
    }

    @Test("The page draws every widget at its family's size, home screen and lock screen apart")
    func page() throws {
        let running = try Running(widgets: Self.widgets)
        let page = try HTTPProbe().request(running.base + "/", headers: running.bearer)
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        let home = try #require(page.body.range(of: "id=\"wd-home\""))
        let lock = try #require(page.body.range(of: "id=\"wd-lock\""))
        let w1 = try #require(page.body.range(of: "data-wh-id=\"w1\""))
        let w2 = try #require(page.body.range(of: "data-wh-id=\"w2\""))
        #expect(home.lowerBound < w1.lowerBound && w1.lowerBound < lock.lowerBound && lock.lowerBound < w2.lowerBound)
        #expect(page.body.contains("width:364px;height:170px"))
        #expect(page.body.contains("width:172px;height:76px"))
        #expect(page.body.contains("budget 3/70"))
        #expect(!page.body.contains("http://") && !page.body.contains("https://"), "the page loads nothing from elsewhere")
    }

    @Test("A write action needs the bearer header: the cookie alone is refused and nothing is called")
    func writesNeedTheBearer() throws {
        let running = try Running(widgets: Self.widgets)
        let probe = HTTPProbe()
        let cookie = "widgethost_token=\(running.token)"
        let refused = try probe.request(
            running.base + "/api/recordView", method: "POST", headers: ["Cookie": cookie], body: #"{"id":"w1"}"#)
        #expect(refused.status == 403)
        let none = try probe.request(running.base + "/api/recordView", method: "POST", body: #"{"id":"w1"}"#)
        #expect(none.status == 401)
        #expect(try running.calls().count == 0)

        let done = try probe.request(
            running.base + "/api/recordView", method: "POST", headers: running.bearer, body: #"{"id":"w1"}"#)
        #expect(done.status == 200)
        #expect(done.body.contains("\"result\""))
        let calls = try running.calls()
        #expect(calls.count == 1)
        #expect(calls.first?.0 == .recordView)
        #expect(calls.first?.1 == .object(["id": .string("w1")]))
    }

    @Test("Only the page's actions are callable; a bad body is 400")
    func actions() throws {
        let running = try Running(widgets: Self.widgets)
        let probe = HTTPProbe()
        #expect(try probe.request(running.base + "/api/status", method: "POST", headers: running.bearer).status == 404)
        #expect(try probe.request(running.base + "/api/subscribe", method: "POST", headers: running.bearer).status == 404)
        #expect(try probe.request(running.base + "/api/recordView", method: "POST", headers: running.bearer, body: "{").status == 400)
        #expect(try probe.request(running.base + "/api/widgets/w1/tap/x", method: "POST", headers: running.bearer).status == 404)
        #expect(try running.calls().count == 0)
    }

    @Test("A hostile kind, id and entry stay text on the page and in its detail page")
    func escaping() throws {
        let hostile = FakeSource.status(
            id: "\"><img src=x onerror=alert(1)>", kind: "<script>alert(1)</script>", family: .systemSmall,
            text: "</pre><script>alert(2)</script>")
        let running = try Running(widgets: [hostile])
        let page = try HTTPProbe().request(running.base + "/", headers: running.bearer)
        #expect(page.status == 200)
        #expect(!page.body.contains("<script>alert"))
        #expect(!page.body.contains("<img src=x"))
        #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let id = "%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"
        let detail = try HTTPProbe().request(running.base + "/widgets/\(id)", headers: running.bearer)
        #expect(detail.status == 200)
        #expect(!detail.body.contains("<script>alert") && !detail.body.contains("<img src=x"))
        #expect(try HTTPProbe().request(running.base + "/widgets/nope", headers: running.bearer).status == 404)
    }

    @Test("An entry change reaches an open /events stream as the widget's new card, without asking")
    func liveUpdate() throws {
        let running = try Running(widgets: Self.widgets)
        let probe = HTTPProbe()
        let task = probe.stream(running.base + "/events", headers: running.bearer)
        defer { task.cancel() }
        #expect(probe.waitFor("widgethost live updates", timeout: 10) != nil)
        try running.source.changeEntry(of: "w1", to: "Ada Lovelace turns 211")
        let events = try #require(probe.waitFor("Ada Lovelace turns 211", timeout: 5))
        #expect(events.contains("event: card\ndata: {"))
        #expect(events.contains("\"id\":\"w1\""))
    }

    @Test("An open stream gets a keep-alive comment each interval")
    func keepAlive() throws {
        let running = try Running(widgets: Self.widgets, keepAlive: 1)
        let probe = HTTPProbe()
        let task = probe.stream(running.base + "/events", headers: running.bearer)
        defer { task.cancel() }
        #expect(probe.waitFor(": keep-alive", timeout: 5) != nil)
    }

    @Test("Open pages share one keep-alive timer; with every page closed, none is left scheduled")
    func oneTimer() throws {
        let running = try Running(widgets: Self.widgets, keepAlive: 1)
        #expect(try running.server.liveTimers().wait() == (0, 0))
        let probes = (0..<3).map { _ in HTTPProbe() }
        let tasks = probes.map { $0.stream(running.base + "/events", headers: running.bearer) }
        for probe in probes { #expect(probe.waitFor("widgethost live updates", timeout: 10) != nil) }
        #expect(try running.server.liveTimers().wait() == (3, 1))
        for task in tasks { task.cancel() }
        // A closed stream is noticed at its next write (the keep-alive, every second here).
        let deadline = Date().addingTimeInterval(15)
        while try running.server.liveTimers().wait().streams > 0, Date() < deadline { usleep(100_000) }
        #expect(try running.server.liveTimers().wait() == (0, 0))
    }

    @Test("/metrics is Prometheus text: reloads by outcome and charge, deferrals, kills, budgets per widget")
    func metrics() throws {
        let running = try Running(widgets: Self.widgets)
        let widget = NoticeWidget(id: "w1", kind: "BirthdayHomeWidget", extension: "com.example.widgets")
        let t0 = FakeSource.t0
        try running.source.publish(.reloadStarted(widget, at: t0, charge: .exempt(.added), requestedAt: t0))
        try running.source.publish(
            .reloadFinished(widget, at: t0, budgeted: false, result: .success, durationMs: 120, footprintBytes: 9_000_000, detail: nil))
        try running.source.publish(.reloadDeferred(widget, at: t0, budgeted: true, requestedAt: t0, until: t0 + 300, reason: .minInterval))
        try running.source.publish(
            .extensionKilled(
                extension: "com.example.widgets", widgetId: "w1", at: t0, result: .timedOut, durationMs: 5000,
                footprintBytes: nil, detail: "no reply within 5 s"))
        let text = try HTTPProbe().request(running.base + "/metrics", headers: running.bearer)
        #expect(text.status == 200)
        #expect(text.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let body = text.body
        #expect(body.contains(#"widgethost_reloads_total{charge="exempt",outcome="success",reason="added"} 1"#))
        #expect(body.contains(#"widgethost_reload_deferrals_total{budgeted="true",reason="minInterval"} 1"#))
        #expect(body.contains(#"widgethost_extension_kills_total{cause="timedOut",extension="com.example.widgets"} 1"#))
        #expect(body.contains(#"widgethost_budget_used{kind="BirthdayHomeWidget",widget="w1"} 3"#))
        #expect(body.contains(#"widgethost_budget_limit{kind="BirthdayHomeWidget",widget="w1"} 70"#))
        #expect(body.contains("widgethost_widgets 2"))
        #expect(body.contains("widgethost_extension_request_duration_seconds_bucket"))
        #expect(body.contains("widgethost_entry_changes_total 0"))
    }

    @Test("dashboard.url holds the URL with the token, readable by the daemon's user only")
    func urlFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/dashboard.url", contents: Data("old".utf8), attributes: [.posixPermissions: 0o644])
        try DashboardURLFile.write(url: "http://127.0.0.1:1/?token=abc", directory: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/dashboard.url")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: directory + "/dashboard.url", encoding: .utf8) == "http://127.0.0.1:1/?token=abc\n")
        DashboardURLFile.remove(directory: directory)
        #expect(!FileManager.default.fileExists(atPath: directory + "/dashboard.url"))
    }

    @Test("Two starts get two different tokens of 64 hex digits")
    func tokens() {
        let a = DashboardToken.random().value
        let b = DashboardToken.random().value
        #expect(a != b)
        #expect(a.count == 64 && a.allSatisfy(\.isHexDigit))
    }
}

extension Tag {
    @Tag static var sockets: Self
}
