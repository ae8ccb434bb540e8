import Foundation
import Testing
import WidgetHostClient
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// State that survives: restart versus reboot, and kill -9 without loss (issue 6).
@Suite("Restart and reboot", .serialized)
struct RestartTests {
    /// What must be identical across a restart: everything but the clock-relative fields.
    private func comparable(_ status: StatusResult) -> [WidgetStatus] {
        status.widgets.map {
            var widget = $0
            widget.staleSeconds = 0
            widget.budget.nextFreeSlot = .distantPast
            return widget
        }
    }

    private func requestLog(_ daemon: RealDaemon, _ name: String) -> [String] {
        let text = (try? String(contentsOfFile: daemon.directory + "/groups/group.com.fixture.\(name.lowercased())/requests.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    private func waitForTimelines(_ client: ControlClient, count: Int) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let status: StatusResult = try client.call(.status, params: StatusParams())
            if status.widgets.count == count, status.widgets.allSatisfy({ $0.lastOutcome != nil && !$0.reloadRunning }) {
                return
            }
            usleep(20_000)
        }
        Issue.record("widgets did not all get a timeline")
    }

    @Test("Restart with the same boot id: identical status, and no extension is asked for a timeline")
    func sameBoot() throws {
        let daemon = try RealDaemon(fixtures: ["WellBehaved"])
        var client = try ControlClient(socketPath: daemon.socket)
        for family in ["systemSmall", "systemMedium"] {
            let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: WidgetFamily(rawValue: family)!))
        }
        try waitForTimelines(client, count: 2)
        let _: ReloadResult = try client.call(.reloadTimelines, params: ReloadTimelinesParams(kind: "WellBehavedWidget"))
        try waitForTimelines(client, count: 2)
        let before: StatusResult = try client.call(.status, params: StatusParams())
        let timelinesBefore = requestLog(daemon, "WellBehaved").filter { $0 == "timeline/get" }.count

        daemon.kill9()
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        usleep(300_000)
        let after: StatusResult = try client.call(.status, params: StatusParams())
        #expect(comparable(after) == comparable(before))
        #expect(after.widgets.map(\.budget.ledger) == before.widgets.map(\.budget.ledger))
        #expect(requestLog(daemon, "WellBehaved").filter { $0 == "timeline/get" }.count == timelinesBefore)
    }

    @Test("An extension inherits only its three pipes, so a killed daemon leaves no listener behind for the next one")
    func extensionsInheritOnlyTheirPipes() throws {
        let daemon = try RealDaemon(fixtures: ["WellBehaved"])
        var client = try ControlClient(socketPath: daemon.socket)
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: .systemSmall))
        try waitForTimelines(client, count: 1)
        let daemonPID = daemon.process.processIdentifier
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemonPID)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(daemonPID)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
        try #require(!children.isEmpty, "the extension stays running while idle")
        for child in children {
            let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child)/fd").compactMap(Int.init).sorted()
            #expect(fds == [0, 1, 2], "extension \(child) holds descriptors \(fds)")
        }

        // The consequence that matters: after kill -9 (extensions still alive), a new daemon starts and serves.
        daemon.kill9()
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        let status: StatusResult = try client.call(.status, params: StatusParams())
        #expect(status.widgets.count == 1)
    }

    @Test("Restart with a new boot id: exactly one exempt reload per instance")
    func newBoot() throws {
        let daemon = try RealDaemon(fixtures: ["WellBehaved"])
        var client = try ControlClient(socketPath: daemon.socket)
        for _ in 0..<3 {
            let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: .systemSmall))
        }
        try waitForTimelines(client, count: 3)
        let timelinesBefore = requestLog(daemon, "WellBehaved").filter { $0 == "timeline/get" }.count
        let usedBefore: StatusResult = try client.call(.status, params: StatusParams())

        daemon.kill9()
        try "boot-2\n".write(toFile: daemon.bootIDFile, atomically: true, encoding: .utf8)
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        try waitForTimelines(client, count: 3)
        usleep(300_000)
        #expect(requestLog(daemon, "WellBehaved").filter { $0 == "timeline/get" }.count == timelinesBefore + 3)
        let after: StatusResult = try client.call(.status, params: StatusParams())
        #expect(after.widgets.map(\.budget.used) == usedBefore.widgets.map(\.budget.used), "reboot reloads are exempt")
    }

    @Test("WIDGETHOST_BOOT_ID (the unit's %b) wins over the boot_id file: a container reboot the file cannot see is one")
    func bootIDFromServiceManager() throws {
        let daemon = try RealDaemon(fixtures: ["WellBehaved"])
        daemon.kill9()
        daemon.extraEnvironment = ["WIDGETHOST_BOOT_ID": "container-boot-1"]
        try daemon.start()
        var client = try ControlClient(socketPath: daemon.socket)
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: .systemSmall))
        try waitForTimelines(client, count: 1)
        let timelines = { self.requestLog(daemon, "WellBehaved").filter { $0 == "timeline/get" }.count }
        let first = timelines()

        // A restart in the same container boot: the file is unchanged and so is %b.
        daemon.kill9()
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        usleep(300_000)
        #expect(timelines() == first, "a restart reloads nothing")

        // The container rebooted: the host's boot_id (the file) is unchanged, %b is new.
        daemon.kill9()
        daemon.extraEnvironment = ["WIDGETHOST_BOOT_ID": "container-boot-2"]
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        try waitForTimelines(client, count: 1)
        usleep(300_000)
        #expect(timelines() == first + 1, "a reboot gives one exempt reload")

        // %b is 32 hex digits, the kernel's file a dashed UUID: the same boot either way, so
        // state written from the file before WIDGETHOST_BOOT_ID existed sees no reboot.
        daemon.kill9()
        try "2aa595ee-02f6-438c-8df3-f2841c70544b\n".write(toFile: daemon.bootIDFile, atomically: true, encoding: .utf8)
        daemon.extraEnvironment = [:]
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        try waitForTimelines(client, count: 1)
        usleep(300_000)
        let fromFile = timelines()
        daemon.kill9()
        daemon.extraEnvironment = ["WIDGETHOST_BOOT_ID": "2aa595ee02f6438c8df3f2841c70544b"]
        try daemon.start()
        client = try ControlClient(socketPath: daemon.socket)
        usleep(300_000)
        #expect(timelines() == fromFile, "%b and the file name the same boot")
    }

    @Test("A reload storm across 50 widgets survives 20 kill -9s: no widget and no reported start is lost, B is never exceeded")
    func durability() throws {
        let config = """
            [budget]
            min = 5
            max = 5
            [policy]
            min_reload_interval = "1s"
            """
        let daemon = try RealDaemon(config: config, fixtures: ["WellBehaved"])
        var client = try ControlClient(socketPath: daemon.socket)
        for index in 0..<50 {
            let family: WidgetFamily = index.isMultiple(of: 2) ? .systemSmall : .systemMedium
            let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: family))
        }
        var generator = SystemRandomNumberGenerator()
        var startedBudgeted: [String: Int] = [:]
        for round in 0..<20 {
            // Storm from another thread while the daemon is killed at a random moment.
            let storm = Storm(socket: daemon.socket)
            storm.start()
            usleep(UInt32.random(in: 50_000...400_000, using: &generator))
            daemon.kill9()
            for (id, count) in storm.stop() { startedBudgeted[id, default: 0] += count }
            try daemon.start()
            client = try ControlClient(socketPath: daemon.socket)
            let status: StatusResult = try client.call(.status, params: StatusParams())
            #expect(status.widgets.count == 50, "round \(round): \(status.widgets.count) widgets")
            for widget in status.widgets {
                #expect(widget.budget.used <= 5, "round \(round): \(widget.widget.id) used \(widget.budget.used) of 5")
                let reported = startedBudgeted[widget.widget.id] ?? 0
                #expect(widget.budget.ledger.count >= reported,
                    "round \(round): \(widget.widget.id) was reported started \(reported) times, ledger has \(widget.budget.ledger.count)")
            }
        }
        #expect(startedBudgeted.values.reduce(0, +) > 0, "the storm started budgeted reloads")
    }

    @Test("A truncated and a garbage state file are refused with the path, and left byte-for-byte unchanged",
        arguments: ["truncated", "garbage"])
    func corruptState(kind: String) throws {
        let daemon = try RealDaemon(fixtures: ["WellBehaved"])
        let client = try ControlClient(socketPath: daemon.socket)
        let _: AddWidgetResult = try client.call(.addWidget, params: AddWidgetParams(kind: "WellBehavedWidget", family: .systemSmall))
        try waitForTimelines(client, count: 1)
        daemon.process.terminate()
        daemon.process.waitUntilExit()

        let file = daemon.directory + "/state/widgethost.sqlite"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes = kind == "truncated" ? bytes.prefix(bytes.count / 2) : Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try bytes.write(to: URL(fileURLWithPath: file))
        for sidecar in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + sidecar) }

        let run = try Self.runDaemonOnce(daemon)
        #expect(run.status == 1)
        #expect(run.stderr.contains(file), "\(run.stderr)")
        #expect(run.stderr.contains("--state-check") || run.stderr.contains("mv "), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes)
    }

    /// Runs widgethostd expecting it to refuse to start; returns its exit status and stderr.
    static func runDaemonOnce(_ daemon: RealDaemon) throws -> CLIRun {
        let process = Process()
        process.executableURL = RealDaemon.packageRoot.appendingPathComponent(".build/debug/widgethostd")
        process.arguments = ["--socket", daemon.socket, "--state", daemon.directory + "/state",
            "--plugins", daemon.directory + "/plugins", "--app-groups", daemon.directory + "/groups"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: "", stderr: String(decoding: data, as: UTF8.self))
    }
}

/// Background `reloadTimelines` as fast as the daemon answers, counting budgeted starts per widget.
final class Storm: @unchecked Sendable {
    private let socket: String
    private let lock = NSLock()
    private var running = true
    private var started: [String: Int] = [:]
    private let done = DispatchSemaphore(value: 0)

    init(socket: String) { self.socket = socket }

    func start() {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            guard let client = try? ControlClient(socketPath: socket, timeout: .seconds(2)) else { return }
            while lock.withLock({ running }) {
                guard let result: ReloadResult = try? client.call(
                    .reloadTimelines, params: ReloadTimelinesParams(kind: "WellBehavedWidget"))
                else { return }
                lock.withLock {
                    for outcome in result.outcomes where outcome.outcome == .started && outcome.budgeted {
                        started[outcome.id, default: 0] += 1
                    }
                }
            }
        }
    }

    func stop() -> [String: Int] {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { started }
    }
}
