import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The README's five-minute walkthrough, with the real BirthdayReminders extension, the real
/// `birthdays` app, widgethostd and the CLI: what `make run` shows a new user.
@Suite("Walkthrough: Birthday Reminders end to end", .serialized)
struct WalkthroughTests {
    static let built = ExampleBundle.products
    static let example = RealDaemon.packageRoot.appendingPathComponent("Examples/BirthdayReminders.appex")

    /// Runs the example app (`birthdays`) as a process.
    static func birthdays(_ arguments: [String], socket: String) throws -> CLIRun {
        let process = Process()
        process.executableURL = built.appendingPathComponent("birthdays")
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "WIDGETHOST_SOCKET": socket]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    static func status(_ daemon: RealDaemon, until done: (WidgetStatus) -> Bool) throws -> WidgetStatus {
        let client = try ControlClient(socketPath: daemon.socket)
        let deadline = Date().addingTimeInterval(10)
        while true {
            let result: StatusResult = try client.call(.status, params: StatusParams())
            let widget = try #require(result.widgets.first)
            if done(widget) || Date() > deadline { return widget }
            usleep(20_000)
        }
    }

    @Test("Import, add, reload: status shows the entry, the budget and the next reload; the app's next change is deferred and says why")
    func walkthrough() throws {
        let plugins = try ExampleBundle.pluginDirectory(holding: "BirthdayReminders")
        defer { try? FileManager.default.removeItem(atPath: plugins) }
        let daemon = try RealDaemon(extraPluginPaths: [plugins])

        let extensions = try daemon.cli("extensions")
        #expect(extensions.stdout.contains("BirthdayHomeWidget"), "\(extensions.stdout)")
        #expect(extensions.stdout.contains("BirthdayLockScreenWidget"))

        let sample = Self.example.appendingPathComponent("sample-birthdays.json").path
        let imported = try Self.birthdays(["import", "--app-groups", daemon.directory + "/groups", "--no-reload", sample], socket: daemon.socket)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 9 birthdays."))

        #expect(try daemon.cli("add", "BirthdayHomeWidget", "--family", "systemMedium").status == 0)
        // The reload of a widget just added is exempt; the app's request is the first budgeted one.
        _ = try Self.status(daemon) { $0.lastOutcome != nil }
        let reload = try daemon.cli("reload", "--kind", "BirthdayHomeWidget")
        #expect(reload.status == 0)
        #expect(reload.stdout.contains("started"), "\(reload.stdout)")

        let widget = try Self.status(daemon) { $0.budget.used == 1 && !$0.reloadRunning && $0.lastOutcome?.result == .success }
        #expect(widget.budget.used == 1)
        #expect(widget.budget.ledger.count == 1)
        let names = Set(["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra",
                         "Margaret Hamilton", "Barbara Liskov", "Leap Day Friend", "Dennis Ritchie"])
        // The medium view shows four of the upcoming birthdays the entry carries.
        let texts = widget.currentEntry.entry?.view?.root.allTexts ?? []
        #expect(texts.filter(names.contains).count == 4, "\(texts)")
        guard case .array(let upcoming)? = widget.currentEntry.entry?.content["upcomingBirthdays"] else {
            Issue.record("no birthdays in \(String(describing: widget.currentEntry.entry?.content))")
            return
        }
        #expect(upcoming.count == 8)

        // The host draws the stored archive: HTML, and a PNG of the family's points × 3.
        let page = daemon.directory + "/w1.html"
        let rendered = try daemon.cli("render", "w1", "--html", page)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("wh-systemMedium") && html.contains("width:364px;height:170px"))
        #expect(texts.filter(names.contains).allSatisfy(html.contains))
        let png = daemon.directory + "/w1.png"
        let shot = try daemon.cli("render", "w1", "--dark", "--png", png)
        #expect(shot.status == 0, "\(shot.stderr)")
        #expect(shot.stdout.contains("1092×510 px"), "\(shot.stdout)")
        // The PNG's own header: systemMedium's 364×170 points at scale 3.
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)).prefix(24))
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(header.starts(with: [0x89, 0x50, 0x4E, 0x47]) && width == 1092 && height == 510)
        // Next reload: the policy, at the next midnight (UTC here).
        guard case .after(let midnight)? = widget.policy else {
            Issue.record("policy \(String(describing: widget.policy))")
            return
        }
        if Date() < midnight {
            #expect(widget.nextReload.at == midnight)
        } else {
            // Midnight passed while the test ran: the policy is due, and its reload waits its turn.
            #expect((widget.nextReload.at ?? .distantPast) >= midnight)
        }
        #expect(Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: midnight).hour == 0)

        let table = try daemon.cli("status")
        #expect(table.stdout.contains("BirthdayHomeWidget") && table.stdout.contains("1/"), "\(table.stdout)")

        // The app changes its data and asks again at once: deferred by the minimum interval, and it is told so.
        let added = try Self.birthdays(["add", "New Friend", "01-01", "--app-groups", daemon.directory + "/groups"], socket: daemon.socket)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("deferred (minInterval)"), "\(added.stdout)")
        let deferred = try Self.status(daemon) { $0.nextReload.deferredBy != nil }
        #expect(deferred.nextReload.deferredBy == .minInterval)
    }

    @Test("Without a daemon the app still saves its data and says the widgets were not reloaded")
    func appWithoutDaemon() throws {
        var template = Array("/tmp/whc-XXXXXX".utf8CString)
        let groups = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: groups) }
        let run = try Self.birthdays(["add", "Solo", "02-29", "--app-groups", groups], socket: groups + "/absent.sock")
        #expect(run.status == 0)
        #expect(run.stdout.contains("widgets not reloaded"), "\(run.stdout)")
        let listed = try Self.birthdays(["list", "--app-groups", groups], socket: groups + "/absent.sock")
        #expect(listed.stdout.contains("Solo"))
        let refused = try Self.birthdays(["add", "Nobody", "02-30", "--app-groups", groups], socket: groups + "/absent.sock")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("not a day of the year"), "\(refused.stderr)")
    }
}

extension ViewNode {
    /// Every text's string runs, depth first.
    var allTexts: [String] {
        var result: [String] = []
        if case .text(let runs) = content {
            result.append(runs.map { if case .string(let text) = $0.content { text } else { "" } }.joined())
        }
        for child in childNodes { result += child.allTexts }
        return result
    }
}

/// `widgethost gallery` without a daemon, on the four example bundles.
@Suite("Gallery: every example drawn without a daemon")
struct GalleryTests {
    @Test(arguments: ["BirthdayReminders", "W8Trackr", "LucidPal", "Widgy"])
    func examples(_ name: String) throws {
        let bundle = ExampleBundle.assembled.appendingPathComponent("\(name).appex").path
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(name)-\(UUID()).html").path
        defer { try? FileManager.default.removeItem(atPath: page) }
        let run = try CLI.run(["gallery", bundle, "--now", "2026-02-15T08:00:00Z", "--html", page])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        // Every kind × family shows a placeholder, a snapshot and at least one entry, none failed.
        let families = html.components(separatedBy: "<section>").count - 1
        #expect(families >= 3)
        #expect(html.components(separatedBy: "<figcaption>placeholder</figcaption>").count - 1 == families)
        #expect(html.components(separatedBy: "<figcaption>snapshot</figcaption>").count - 1 == families)
        #expect(html.components(separatedBy: "<figcaption>entry 1 of ").count - 1 == families)
        #expect(!html.contains("failed</figcaption>"), "a request failed")
        #expect(!html.contains("class=\"wh-content-json\""), "an entry without a view")
    }

    @Test("A directory that is not a bundle is refused with the reason")
    func notABundle() throws {
        let run = try CLI.run(["gallery", "/tmp", "--html", "/tmp/never.html"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the bundle cannot be loaded"), "\(run.stderr)")
    }
}
