import Foundation
import Testing
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The dashboard with the real daemon, the five example widgets, an interactive one
/// (Tests/Fixtures/Extensions/intents.py) and a real browser:
/// Tests/Browser/dashboard_browser_test.py drives Debian's headless Chromium (chromedriver,
/// selenium) and parses /metrics with prometheus_client. `make test` installs them.
@Suite("Dashboard in a real browser", .serialized)
struct DashboardBrowserTests {
    static let examples = ExampleBundle.assembled.path
    static let script = RealDaemon.packageRoot.appendingPathComponent("Tests/Browser/dashboard_browser_test.py").path
    /// The screenshot each run leaves, as a test artifact.
    static let screenshot = RealDaemon.packageRoot.appendingPathComponent(".build/test-artifacts/dashboard.png").path

    static func browserInstalled() -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
    }

    @Test("Six widgets at their sizes, a shell reload on the page within 1 s, timers count, writes need the token, a click taps a button, /metrics counts")
    func dashboard() throws {
        try #require(Self.browserInstalled(), "chromium and chromium-driver are not installed (make test-deps)")
        try #require(
            FileManager.default.fileExists(atPath: Self.examples + "/BirthdayReminders.appex"),
            "the example bundles are not assembled (scripts/assemble-plugins.sh)")
        let daemon = try RealDaemon(
            config: """
                [dashboard]
                listen = "127.0.0.1:0"
                [limits]
                timeline_timeout = "1s"
                """,
            fixtures: ["Sleeper"], extraPluginPaths: [Self.examples])
        let urlFile = daemon.directory + "/state/dashboard.url"
        // The control socket answers first; the dashboard listens right after it.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !FileManager.default.fileExists(atPath: urlFile) { usleep(20_000) }
        let log = { (try? String(contentsOfFile: daemon.directory + "/widgethostd.log", encoding: .utf8)) ?? "" }
        let url = try #require(try? String(contentsOfFile: urlFile, encoding: .utf8), "no \(urlFile): \(log())")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("http://127.0.0.1:") && url.contains("/?token="))
        let mode = try FileManager.default.attributesOfItem(atPath: urlFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // The apps' data first, then the widgets, as `make run` does.
        let groups = daemon.directory + "/groups"
        let environment = [
            "WIDGETHOST_SOCKET": daemon.socket,
            "WIDGETHOST_APP_GROUPS": "group.app.lucidpal=\(groups)/group.app.lucidpal",
        ]
        let birthdays = try Self.run(
            "birthdays",
            ["import", "--app-groups", groups, "--no-reload",
             RealDaemon.packageRoot.appendingPathComponent("Examples/BirthdayReminders.appex/sample-birthdays.json").path],
            environment: environment)
        #expect(birthdays.status == 0, "\(birthdays.stderr)")
        let event = try Self.run("lucidpal", ["event", "Focus time", "--in", "0", "--minutes", "60"], environment: environment)
        #expect(event.status == 0, "\(event.stderr)")
        // An interactive widget whose buttons and toggles the browser clicks (intents.py).
        try RealDaemon.writeFixture("Tasks", into: daemon.directory + "/plugins", script: RealDaemon.intentsScript)
        #expect(try daemon.cli("rescan").status == 0)
        for (kind, family) in [
            ("BirthdayHomeWidget", "systemMedium"), ("BirthdayLockScreenWidget", "accessoryRectangular"),
            ("WeightWidget", "systemMedium"), ("LucidPalWidget", "systemMedium"), ("WidgyWidget", "systemMedium"),
            ("TasksWidget", "systemMedium"),
        ] {
            let added = try daemon.cli("add", kind, "--family", family)
            #expect(added.status == 0, "\(added.stderr)")
        }

        try FileManager.default.createDirectory(
            atPath: (Self.screenshot as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            Self.script, "--url", url, "--bin", WalkthroughTests.built.path, "--socket", daemon.socket,
            "--app-groups", groups, "--screenshot", Self.screenshot, "--widgets", "6",
        ]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": daemon.directory]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)\n--- widgethostd:\n\(log().suffix(3000))")
        #expect(text.contains(" passed, 0 failed"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: Self.screenshot))

        // The URL file goes with the daemon.
        daemon.process.terminate()
        daemon.process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: urlFile))
    }

    @Test("A dashboard address that is not loopback is refused at start, with the fix")
    func notLoopback() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID()).toml").path
        try "[dashboard]\nlisten = \"0.0.0.0:8765\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try Self.run("widgethostd", ["--config", config], environment: [:])
        #expect(run.status == 1)
        #expect(run.stderr.contains("0.0.0.0 is not a loopback address"), "\(run.stderr)")
    }

    /// One of the built executables, waited for.
    static func run(_ name: String, _ arguments: [String], environment: [String: String]) throws -> CLIRun {
        let process = Process()
        process.executableURL = WalkthroughTests.built.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC"].merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}
