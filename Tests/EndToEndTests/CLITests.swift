import Foundation
import Testing
import WidgetHostProtocol

#if canImport(Glibc)
import Glibc
#endif

extension Tag {
    /// Tests that run the built `widgethost` binary as a process.
    @Tag static var cliProcess: Self
}

@Suite("The widgethost CLI as a process", .tags(.cliProcess, .controlSocket))
struct CLITests {
    static let subcommands = [
        "reload", "list", "status", "timeline", "add", "remove", "view", "extensions", "events", "rescan", "render",
    ]

    @Test("Every subcommand's --help exits 0 and shows an example", arguments: subcommands)
    func helpHasExample(subcommand: String) throws {
        let run = try CLI.run([subcommand, "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Example"))
        #expect(run.stdout.contains("widgethost \(subcommand)"))
        #expect(run.stdout.contains("--json"))
        #expect(run.stdout.contains("--socket"))
    }

    @Test("The top-level help lists every subcommand")
    func topLevelHelp() throws {
        let run = try CLI.run(["--help"])
        #expect(run.status == 0)
        for subcommand in Self.subcommands { #expect(run.stdout.contains(subcommand)) }
    }

    @Test("reload --help explains it in WidgetKit terms")
    func reloadHelpTeaches() throws {
        let run = try CLI.run(["reload", "--help"])
        #expect(run.stdout.contains("WidgetCenter.shared.reloadTimelines(ofKind:)"))
        #expect(run.stdout.contains("budgeted"))
        #expect(run.stdout.contains("--foreground"))
    }

    @Test("No daemon at --socket: exit 69 and exactly one line on stderr")
    func unreachableExplicitSocket() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/widgethost.sock"
        let run = try CLI.run(["status", "--socket", path])
        #expect(run.status == 69)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "widgethost: cannot reach widgethostd at \(path) (No such file or directory); "
                + "start it with `make run` or `systemctl start widgethostd.socket`\n")
    }

    @Test("Without --socket the path comes from WIDGETHOST_SOCKET", arguments: ["reload --kind K", "list", "events"])
    func unreachableEnvironmentSocket(command: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/from-env.sock"
        let run = try CLI.run(command.split(separator: " ").map(String.init), environment: ["WIDGETHOST_SOCKET": path])
        #expect(run.status == 69)
        #expect(run.stderr.hasPrefix("widgethost: cannot reach widgethostd at \(path) (No such file or directory); "))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("status --json prints the daemon's result as sorted-keys JSON")
    func statusJSON() throws {
        let server = try FakeControlServer { request in [.reply(request.id, StatusResult.sample)] }
        defer { server.stop() }
        let run = try CLI.run(["status", "--json", "--socket", server.path])
        #expect(run.status == 0)
        let decoded = try WireCoding.decode(StatusResult.self, from: Data(run.stdout.utf8))
        #expect(decoded == StatusResult.sample)
        // Sorted keys: "addedAt" comes before "backoff", "budget", … and "widget" last.
        let keys = ["\"addedAt\"", "\"backoff\"", "\"budget\"", "\"currentEntry\"", "\"widget\""]
        let positions = keys.compactMap { run.stdout.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count)
        #expect(positions == positions.sorted())
        #expect(server.requests.map(\.method) == ["status"])
    }

    @Test("status prints a table with aligned columns")
    func statusTable() throws {
        let server = try FakeControlServer { request in [.reply(request.id, StatusResult.sample)] }
        defer { server.stop() }
        let run = try CLI.run(["status", "--socket", server.path])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let header = try #require(lines.first)
        for column in ["ID", "KIND", "FAMILY", "BUDGET", "NEXT RELOAD", "LAST OUTCOME", "CURRENT ENTRY", "STALE"] {
            #expect(header.contains(column))
        }
        let row = lines[1]
        for (column, value) in [
            ("KIND", "BirthdayHomeWidget"), ("FAMILY", "systemSmall"), ("BUDGET", "1/70"),
            ("NEXT RELOAD", "2026-02-16 00:00:00 policy"), ("LAST OUTCOME", "success, 250 ms"),
            ("CURRENT ENTRY", #"timeline {"names":["Ada Lovelace"]}"#),
        ] {
            let columnStart = try #require(header.range(of: column)).lowerBound
            let valueStart = try #require(row.range(of: value)).lowerBound
            #expect(header.distance(from: header.startIndex, to: columnStart) == row.distance(from: row.startIndex, to: valueStart))
        }
        #expect(row.hasPrefix("w1 "))
        #expect(row.hasSuffix("no"))
        #expect(lines[2].contains("08:05:00 requested (minInterval)"))
        #expect(lines[2].hasSuffix("4m"))
    }

    @Test("status ID answers every question about one widget")
    func statusDetail() throws {
        let server = try FakeControlServer { request in
            [.reply(request.id, StatusResult(now: .t0, widgets: [StatusResult.sample.widgets[0]]))]
        }
        defer { server.stop() }
        let run = try CLI.run(["status", "w1", "--socket", server.path])
        #expect(run.status == 0)
        for expected in [
            "w1  BirthdayHomeWidget (systemSmall)",
            "1 of 70 budgeted reloads used in the last 24 h",
            "learning period",
            "ledger          08:00:00",
            "next free slot  now",
            "next reload     2026-02-16 00:00:00, due by the timeline's reload policy, budgeted",
            "success at 08:00:00, took 250 ms, peak footprint 4.0 MiB",
            #"from the current timeline, dated 08:00:00: {"names":["Ada Lovelace"]}"#,
            "stale           no",
            "backoff         none",
            "diagnostics     none",
        ] {
            #expect(run.stdout.contains(expected), "missing \(expected)")
        }
        #expect(server.requests.first?.params == ["id": "w1"])
    }

    @Test("reload --kind prints one line per instance with the budget used, from one call")
    func reloadLines() throws {
        let server = try FakeControlServer { request in
            switch request.method {
            case "reloadTimelines": [.reply(request.id, ReloadResult.sample)]
            default: [.error(request.id, code: -32601, message: "only reloadTimelines expected")]
            }
        }
        defer { server.stop() }
        let run = try CLI.run(["reload", "--kind", "BirthdayHomeWidget", "--socket", server.path])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                w1  BirthdayHomeWidget  started (budgeted, 1 of 70 used)
                w3  BirthdayHomeWidget  deferred until 08:05:00 (minInterval)

                """)
        #expect(server.requests.map(\.method) == ["reloadTimelines"])
        #expect(server.requests.first?.params == ["kind": "BirthdayHomeWidget"])
    }

    @Test("reload --all makes one call too; a reply without budget figures (an older daemon) leaves them out")
    func reloadAllOneCall() throws {
        var outcome = ReloadResult.sample.outcomes[0]
        outcome.budget = nil
        let older = ReloadResult(outcomes: [outcome])
        let server = try FakeControlServer { request in [.reply(request.id, older)] }
        defer { server.stop() }
        let run = try CLI.run(["reload", "--all", "--app", "com.birthdayreminders", "--socket", server.path])
        #expect(run.status == 0)
        #expect(run.stdout == "w1  BirthdayHomeWidget  started (budgeted)\n")
        #expect(server.requests.map(\.method) == ["reloadAllTimelines"])
    }

    @Test("reload --all --app --foreground is reloadAllTimelines from a foreground app")
    func reloadAllForeground() throws {
        let server = try FakeControlServer { request in [.reply(request.id, ReloadResult(outcomes: []))] }
        defer { server.stop() }
        let run = try CLI.run(
            ["reload", "--all", "--app", "com.birthdayreminders", "--foreground", "--json", "--socket", server.path])
        #expect(run.status == 0)
        #expect(try WireCoding.decode(ReloadResult.self, from: Data(run.stdout.utf8)) == ReloadResult(outcomes: []))
        let request = try #require(server.requests.first)
        #expect(request.method == "reloadAllTimelines")
        #expect(request.params == ["app": "com.birthdayreminders", "foreground": true])
    }

    @Test("reload --all without an app is a usage error")
    func reloadAllNeedsApp() throws {
        let run = try CLI.run(["reload", "--all", "--socket", "/nonexistent.sock"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--all needs the app"))
    }

    @Test("A refused request exits 65 with the daemon's message")
    func refused() throws {
        let message = #"unknown widget kind "Foo"; known kinds are BirthdayHomeWidget, BirthdayLockScreenWidget"#
        let server = try FakeControlServer { request in [.error(request.id, code: -32000, message: message)] }
        defer { server.stop() }
        let run = try CLI.run(["reload", "--kind", "Foo", "--socket", server.path])
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "widgethost: \(message)\n")
    }

    @Test("Permission denied exits 77 with the daemon's message")
    func permissionDenied() throws {
        let message = "addWidget needs root, the daemon's own user or a group in control.admin_groups; uid 1000 is none of these"
        let server = try FakeControlServer { request in [.error(request.id, code: -32001, message: message)] }
        defer { server.stop() }
        let run = try CLI.run(["add", "BirthdayHomeWidget", "--family", "systemSmall", "--socket", server.path])
        #expect(run.status == 77)
        #expect(run.stderr == "widgethost: \(message)\n")
        #expect(server.requests.first?.params == ["kind": "BirthdayHomeWidget", "family": "systemSmall"])
    }

    @Test("A bad --family is rejected before connecting, with the list of families")
    func badFamily() throws {
        let server = try FakeControlServer { request in [.reply(request.id, ["never": true] as JSONValue)] }
        defer { server.stop() }
        let run = try CLI.run(["add", "BirthdayHomeWidget", "--family", "huge", "--socket", server.path])
        #expect(run.status == 64)
        let expected = try #require(WidgetFamily.parse("huge").failure).description
        #expect(run.stderr.contains(expected))
        #expect(run.stderr.contains("systemSmall, systemMedium, systemLarge"))
        #expect(server.requests.isEmpty)
    }

    @Test("A daemon that does not answer: exit 75 after --timeout")
    func timeout() throws {
        let server = try FakeControlServer { _ in [.pause(.seconds(5))] }
        defer { server.stop() }
        let run = try CLI.run(["status", "--timeout", "0.3", "--socket", server.path])
        #expect(run.status == 75)
        #expect(run.stderr.hasPrefix("widgethost: widgethostd at \(server.path) did not answer status within 0.3 s"))
    }

    @Test("list prints a table of widgets")
    func list() throws {
        let server = try FakeControlServer { request in [.reply(request.id, [WidgetInfo.birthday])] }
        defer { server.stop() }
        let run = try CLI.run(["list", "--app", "com.birthdayreminders", "--socket", server.path])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                ID  KIND                FAMILY       APP                    EXTENSION
                w1  BirthdayHomeWidget  systemSmall  com.birthdayreminders  com.birthdayreminders.widget

                """)
        #expect(server.requests.first?.params == ["app": "com.birthdayreminders"])
    }

    @Test("events --json prints one JSON line per notice; a closed stream exits 69")
    func eventsJSON() throws {
        let server = try FakeControlServer { request in
            [.reply(request.id, SubscribeResult()), .notice(.started), .notice(.deferred), .close]
        }
        defer { server.stop() }
        let run = try CLI.run(["events", "--json", "--socket", server.path])
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let notices = try lines.map { try WireCoding.decode(HostNotice.self, from: Data($0.utf8)) }
        #expect(notices == [.started, .deferred])
        #expect(run.status == 69)
        #expect(run.stderr == "widgethost: widgethostd at \(server.path) closed the event stream (it stopped or restarted)\n")
    }

    @Test("events prints one readable line per notice")
    func eventsText() throws {
        let server = try FakeControlServer { request in
            [.reply(request.id, SubscribeResult()), .notice(.started), .notice(.deferred), .notice(.finished), .close]
        }
        defer { server.stop() }
        let run = try CLI.run(["events", "--socket", server.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        // Times carry their date (2026-02-15) unless that is today.
        #expect(lines[0].hasSuffix("08:01:00  reloadStarted    w1 BirthdayHomeWidget  budgeted"))
        #expect(lines[1].contains("08:01:00  reloadDeferred   w1 BirthdayHomeWidget  until "))
        #expect(lines[1].hasSuffix("08:06:00 (minInterval)"))
        #expect(lines[2].hasSuffix("reloadFinished   w1 BirthdayHomeWidget  success 12 ms 4.0 MiB"))
    }

    @Test("events says what each type of notice carries")
    func eventsTextEveryType() throws {
        let widget = HostNotice.birthday
        let ext = widget.extension
        let entry = TimelineEntryPayload(date: .t0, content: ["text": "Ada"])
        let notices: [(HostNotice, String)] = [
            (.widgetAdded(widget, at: .t0), "widgetAdded      w1 BirthdayHomeWidget  \(ext)"),
            (
                .reloadStarted(widget, at: .t0 + 30, charge: .exempt(.added), requestedAt: .t0),
                "reloadStarted    w1 BirthdayHomeWidget  exempt (added) waited 30s"
            ),
            (
                .reloadStarted(widget, at: .t0, charge: .prepaid, requestedAt: .t0),
                "reloadStarted    w1 BirthdayHomeWidget  exempt (prepaid)"
            ),
            (
                .reloadCoalesced(widget, at: .t0, budgeted: true, until: nil, reason: .reloadInProgress),
                "reloadCoalesced  w1 BirthdayHomeWidget  (reloadInProgress)"
            ),
            (
                .reloadFinished(
                    widget, at: .t0, budgeted: true, result: .timedOut, durationMs: 2500, footprintBytes: nil,
                    detail: "no reply"),
                "reloadFinished   w1 BirthdayHomeWidget  timedOut 2.5 s — no reply"
            ),
            (
                .entryChanged(widget, at: .t0, entry: entry, source: .timeline),
                #"entryChanged     w1 BirthdayHomeWidget  {"text":"Ada"} — timeline"#
            ),
            (
                .diagnostic(widget, Diagnostic(at: .t0, code: "emptyTimeline", severity: .warning, message: "no entries")),
                "diagnostic       w1 BirthdayHomeWidget  warning emptyTimeline: no entries"
            ),
            (.snapshotReceived(widget, at: .t0, entry: entry), #"snapshotReceived w1 BirthdayHomeWidget  {"text":"Ada"}"#),
            (
                .extensionKilled(
                    extension: ext, widgetId: "w1", at: .t0, result: .memoryLimitExceeded, durationMs: 800,
                    footprintBytes: 31_457_280, detail: "over the limit"),
                "extensionKilled  w1  \(ext) — over the limit"
            ),
            (.extensionStopped(extension: ext, at: .t0, detail: "idle for 30s"), "extensionStopped \(ext)  — idle for 30s"),
            (.widgetRemoved(widget, at: .t0), "widgetRemoved    w1 BirthdayHomeWidget  \(ext)"),
        ]
        let server = try FakeControlServer { request in
            [.reply(request.id, SubscribeResult())] + notices.map { .notice($0.0) } + [.close]
        }
        defer { server.stop() }
        let run = try CLI.run(["events", "--socket", server.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == notices.count)
        for (line, expected) in zip(lines, notices.map(\.1)) {
            #expect(line.hasSuffix(" " + expected), "\(line)")
        }
    }

    @Test("events runs until interrupted, then exits 0")
    func eventsUntilInterrupted() throws {
        let server = try FakeControlServer { request in
            [.reply(request.id, SubscribeResult()), .notice(.started), .pause(.seconds(30))]
        }
        defer { server.stop() }
        let running = try CLI.start(["events", "--socket", server.path])
        let deadline = Date().addingTimeInterval(10)
        while running.stdout.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(running.stdout.contains("reloadStarted"))
        running.process.interrupt()
        let run = running.wait()
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
    }

    @Test("extensions lists loaded bundles with kinds and skipped ones with the reason")
    func extensions() throws {
        let result = ExtensionsResult(
            loaded: [
                LoadedExtension(
                    id: "com.birthdayreminders.widget", app: "com.birthdayreminders", displayName: "Birthday Reminders",
                    path: "/usr/lib/widgethost/plugins/BirthdayReminders.appex",
                    appGroups: ["group.com.birthdayreminders"],
                    widgets: [
                        WidgetDescriptor(
                            kind: "BirthdayHomeWidget", displayName: "Birthdays", description: "Upcoming birthdays",
                            supportedFamilies: [.systemSmall, .systemMedium])
                    ])
            ],
            skipped: [SkippedBundle(path: "/etc/widgethost/plugins.d/Broken.appex", reason: "Info.plist is missing")])
        let server = try FakeControlServer { request in [.reply(request.id, result)] }
        defer { server.stop() }
        let run = try CLI.run(["extensions", "--socket", server.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("com.birthdayreminders.widget  Birthday Reminders  (app com.birthdayreminders)"))
        #expect(run.stdout.contains("BirthdayHomeWidget  systemSmall, systemMedium  Birthdays"))
        #expect(run.stdout.contains("Skipped 1 bundle:"))
        #expect(run.stdout.contains("Info.plist is missing"))
        #expect(server.requests.first?.params == nil)
    }

    static let sandbox = ExtensionSandbox(
        mode: "auto",
        applied: [
            SandboxRuleState(rule: "filesystem", detail: "reads its bundle"),
            SandboxRuleState(rule: "seccomp", detail: "Unix sockets only"),
        ],
        missing: [SandboxRuleState(rule: "tcp", detail: "Landlock ABI 3 has no TCP rules (ABI 4, Linux 6.7)")])

    @Test("extensions and status show each extension's sandbox: the mode, the rules applied, the rules missing with why")
    func sandbox() throws {
        let extensions = ExtensionsResult(
            loaded: [
                LoadedExtension(
                    id: "com.birthdayreminders.widget", app: "com.birthdayreminders", displayName: "Birthday Reminders",
                    path: "/p/BirthdayReminders.appex", appGroups: [], widgets: [], sandbox: Self.sandbox)
            ], skipped: [])
        var sample = StatusResult.sample
        sample.extensions = [
            ExtensionStatus(id: "com.birthdayreminders.widget", sandbox: Self.sandbox),
            ExtensionStatus(id: "com.refused.widget", sandbox: ExtensionSandbox(
                mode: "required", applied: [], missing: [], refused: "limits.sandbox = \"required\" and …")),
        ]
        let status = sample
        let server = try FakeControlServer { request in
            request.method == "status" ? [.reply(request.id, status)] : [.reply(request.id, extensions)]
        }
        defer { server.stop() }
        let line = "auto: filesystem, seccomp; missing: tcp (Landlock ABI 3 has no TCP rules (ABI 4, Linux 6.7))"
        let catalog = try CLI.run(["extensions", "--socket", server.path])
        #expect(catalog.stdout.contains("  sandbox: " + line))
        let table = try CLI.run(["status", "--socket", server.path])
        #expect(table.stdout.contains("Sandbox:\n  com.birthdayreminders.widget  " + line))
        #expect(table.stdout.contains("com.refused.widget            required: every start refused: limits.sandbox"))
        let detail = try CLI.run(["status", "w1", "--socket", server.path])
        #expect(detail.stdout.contains("com.birthdayreminders.widget  " + line))
        let json = try CLI.run(["status", "--json", "--socket", server.path])
        #expect(json.stdout.contains("\"rule\" : \"tcp\"") || json.stdout.contains("\"rule\":\"tcp\""))
    }
}

// MARK: - Running the binary

struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    /// The `widgethost` built beside the test bundle, else under the package's .build/debug.
    static let binary: URL? = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("widgethost")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let underBuild = packageRoot.appendingPathComponent(".build/debug/widgethost")
        return [beside, underBuild].first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs the CLI with a clean environment (TZ=UTC so times are predictable) and waits.
    /// `executable`: another copy of it, or the full CLI (`widgethost-cli`) itself.
    static func run(_ arguments: [String], environment: [String: String] = [:], executable: URL? = nil) throws -> CLIRun {
        try start(arguments, environment: environment, executable: executable).wait()
    }

    /// Starts the CLI; its output goes to files that can be read while it runs.
    static func start(_ arguments: [String], environment: [String: String] = [:], executable: URL? = nil) throws -> RunningCLI {
        let binary = try #require(executable ?? binary, "widgethost is not built; run `swift build --build-tests` first")
        let directory = try TemporaryDirectory()
        let stdoutPath = directory.path + "/stdout", stderrPath = directory.path + "/stderr"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        defer {
            try? stdout.close()
            try? stderr.close()
        }

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TZ": "UTC", "COLUMNS": "80"]
        base.merge(environment) { _, new in new }
        process.environment = base
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return RunningCLI(process: process, directory: directory, arguments: arguments)
    }
}

struct RunningCLI {
    let process: Process
    let directory: TemporaryDirectory
    let arguments: [String]

    var stdout: String { (try? String(contentsOfFile: directory.path + "/stdout", encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: directory.path + "/stderr", encoding: .utf8)) ?? "" }

    /// Waits for the process to exit (killing it after 20 s, which fails the test).
    func wait() -> CLIRun {
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("widgethost \(arguments.joined(separator: " ")) did not exit within 20 s")
        }
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

// MARK: - Fixtures

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension ReloadResult {
    static let sample = ReloadResult(
        outcomes: [
            WidgetReloadOutcome(
                id: "w1", kind: "BirthdayHomeWidget", outcome: .started, budgeted: true,
                budget: BudgetUsage(used: 1, limit: 70)),
            WidgetReloadOutcome(
                id: "w3", kind: "BirthdayHomeWidget", outcome: .deferred, budgeted: true,
                until: RFC3339.parse("2026-02-15T08:05:00Z")!, reason: .minInterval,
                budget: BudgetUsage(used: 70, limit: 70)),
        ],
        now: .t0)
}

extension StatusResult {
    static let sample: StatusResult = {
        let started = RFC3339.parse("2026-02-15T08:00:00Z")!
        let entry = TimelineEntryPayload(date: started, content: ["names": ["Ada Lovelace"]])
        let w1 = WidgetStatus(
            widget: .birthday,
            addedAt: RFC3339.parse("2026-02-15T07:00:00Z")!,
            budget: BudgetStatus(
                used: 1, limit: 70, engagement: 1, views: 0, learning: true, pinned: false, enforced: true,
                ledger: [started], nextFreeSlot: .t0),
            nextReload: NextReload(at: RFC3339.parse("2026-02-16T00:00:00Z")!, cause: "policy", budgeted: true),
            reloadRunning: false,
            lastOutcome: LastOutcome(
                result: .success, startedAt: started, finishedAt: started + 0.25, peakFootprintBytes: 4 * 1_048_576,
                detail: nil),
            currentEntry: CurrentEntry(source: .timeline, entry: entry),
            policy: .after(RFC3339.parse("2026-02-16T00:00:00Z")!),
            staleSince: nil, staleSeconds: 0,
            backoff: BackoffStatus(consecutiveFailures: 0, until: nil),
            diagnostics: [])
        let w3 = WidgetStatus(
            widget: WidgetInfo(
                id: "w3", kind: "BirthdayHomeWidget", family: .systemMedium, app: "com.birthdayreminders",
                extension: "com.birthdayreminders.widget"),
            addedAt: RFC3339.parse("2026-02-14T07:00:00Z")!,
            budget: BudgetStatus(
                used: 70, limit: 70, engagement: 1, views: 12, learning: false, pinned: false, enforced: true,
                ledger: [], nextFreeSlot: .t0 + 3600),
            nextReload: NextReload(
                at: RFC3339.parse("2026-02-15T08:05:00Z")!, cause: "requested", budgeted: true, deferredBy: .minInterval),
            reloadRunning: false,
            lastOutcome: nil,
            currentEntry: CurrentEntry(source: .placeholder, entry: nil),
            policy: nil,
            staleSince: .t0 - 240, staleSeconds: 240,
            backoff: BackoffStatus(consecutiveFailures: 0, until: nil),
            diagnostics: [])
        return StatusResult(now: .t0, widgets: [w1, w3])
    }()
}
