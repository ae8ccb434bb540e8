import Foundation
import Logging
import Testing
import WidgetHostBundles
import WidgetHostConfiguration
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol
@testable import WidgetHostDaemon
import WidgetHostRunner
#if canImport(Glibc)
import Glibc
#endif

/// The real daemon with a real Sleeper extension process, its cgroup adapter pointed at a
/// fake cgroup root. The test plays the kernel: it writes `memory.events` and sends SIGKILL.
@Suite("cgroup per extension in the running daemon", .tags(.process), .serialized)
struct CgroupDaemonTests {
    static let memoryLimit = 30 * 1_048_576

    @Test("A kernel memory kill (oom_kill in memory.events) is memoryLimitExceeded, a plain SIGKILL is crashed; each cgroup goes once reaped")
    func kernelMemoryKill() throws {
        let fake = try FakeCgroupRoot()
        defer { fake.cleanUp() }
        let daemon = try Self.startDaemon(fake: fake)
        defer {
            daemon.stop()
            try? daemon.wait()
            daemon.shutdownEventLoop()
        }
        let client = try TestClient(path: daemon.options.control.socketPath)
        let events = try TestClient(path: daemon.options.control.socketPath)
        _ = try events.call("subscribe")

        let added: AddWidgetResult = try client.result("addWidget", ["kind": "SleeperWidget", "family": "systemSmall"])
        let widget = added.widget.id
        #expect(events.nextNotice { $0.type == .reloadFinished && $0.widgetId == widget }?.result == .success)
        let first = try #require(extensionGroups(fake).only, "one cgroup for the one process: \(extensionGroups(fake))")
        #expect(fake.read("\(first)/memory.max") == "\(Self.memoryLimit)")
        let firstPID = try #require(pid(in: first))
        #expect(kill(firstPID, 0) == 0, "the process in cgroup.procs is the live extension")

        // The kernel kills the extension for memory.max while timeline/get runs.
        let killed = try reloadAndKill(widget, pid: firstPID, client: client, events: events) {
            try fake.write("\(first)/memory.events", "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\noom_group_kill 1\n")
            try fake.write("\(first)/memory.peak", "31600000\n")
        }
        #expect(killed?.result == .memoryLimitExceeded)
        #expect(killed?.detail?.contains("footprint 30.1 MiB exceeded limits.memory = 30.0 MiB") == true, "\(killed?.detail ?? "")")
        #expect(try waitUntil(timeout: 3) { !FileManager.default.fileExists(atPath: first) }, "removed after reaping")

        // A fresh process (its first timeline is served), in a fresh cgroup, then killed
        // without a memory event: a crash.
        // Deferred by the 0.1 s backoff after the failure, then run.
        _ = try client.call("reloadTimelines", ["kind": "SleeperWidget", "foreground": true])
        #expect(events.nextNotice { $0.type == .reloadFinished && $0.widgetId == widget }?.result == .success)
        let second = try #require(extensionGroups(fake).only)
        #expect(second != first)
        let secondPID = try #require(pid(in: second))
        let crashed = try reloadAndKill(widget, pid: secondPID, client: client, events: events) {}
        #expect(crashed?.result == .crashed)
        #expect(crashed?.detail?.contains("killed by signal 9") == true, "\(crashed?.detail ?? "")")
        #expect(try waitUntil(timeout: 3) { extensionGroups(fake).isEmpty })

        let status: StatusResult = try client.result("status", ["id": .string(widget)])
        #expect(status.widgets.first?.currentEntry.source == .timeline, "the previous timeline stays")
    }

    /// Asks for a reload, waits until timeline/get runs, does what the "kernel" does, SIGKILLs.
    private func reloadAndKill(
        _ widget: String, pid: pid_t, client: TestClient, events: TestClient, kernel: () throws -> Void
    ) throws -> HostNotice? {
        _ = try client.call("reloadTimelines", ["kind": "SleeperWidget", "foreground": true])
        #expect(events.nextNotice { $0.type == .reloadStarted && $0.widgetId == widget } != nil)
        // The request is running from here on, whether or not the process has read it yet.
        try kernel()
        kill(pid, SIGKILL)
        return events.nextNotice { $0.type == .reloadFinished && $0.widgetId == widget }
    }

    private func extensionGroups(_ fake: FakeCgroupRoot) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fake.delegated)) ?? []
        return names.filter { $0.hasPrefix("ext-com_fixture_sleeper_widget-") }.sorted().map { "\(fake.delegated)/\($0)" }
    }

    private func pid(in group: String) -> pid_t? {
        (try? String(contentsOfFile: "\(group)/cgroup.procs", encoding: .utf8)).flatMap { pid_t($0) }
    }

    /// A daemon hosting the Sleeper fixture (its first timeline per process is served).
    static func startDaemon(fake: FakeCgroupRoot) throws -> Daemon {
        let directory = fake.root
        let bundle = "\(directory)/plugins/Sleeper.appex"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        // The extension's code lives in its bundle: the sandbox lets it read nothing outside.
        try FileManager.default.copyItem(atPath: fixtureScript, toPath: "\(bundle)/extension.py")
        let wrapper = "#!/bin/sh\nexport WIDGETHOST_FIXTURE_GOOD_FIRST=1\nexec python3 \"$(dirname \"$0\")/extension.py\" \"$@\"\n"
        try wrapper.write(toFile: "\(bundle)/Sleeper", atomically: true, encoding: .utf8)
        chmod("\(bundle)/Sleeper", 0o755)
        let plugin = ExtensionBundle(
            directory: URL(fileURLWithPath: bundle), bundleID: "com.fixture.sleeper.widget", displayName: "Sleeper",
            executable: URL(fileURLWithPath: "\(bundle)/Sleeper"), appGroups: [])

        var host = HostConfiguration()
        host.limits.timelineTimeout = 30  // the test kills first
        host.limits.memory = memoryLimit
        host.budget.enforce = false
        host.backoff.initial = 0.1
        host.backoff.maximum = 0.1
        var options = DaemonOptions(
            host: host, control: ControlSettings(socketPath: "\(directory)/control.sock"),
            pluginPaths: ["\(directory)/plugins"], appGroupsPath: "\(directory)/AppGroups",
            statePath: "\(directory)/state")
        try "boot-1\n".write(toFile: "\(directory)/boot_id", atomically: true, encoding: .utf8)
        options.bootIDPath = "\(directory)/boot_id"
        var logger = Logger(label: "widgethostd-cgroup-test")
        logger.logLevel = .critical
        let daemon = try Daemon(
            options: options, store: InMemoryStateStore(), logger: logger, scanBundles: { BundleScan(bundles: [plugin]) })
        let delegation = try CgroupDelegation.prepare(fake.sources, pid: 4242, removeDirectory: FakeCgroupRoot.remove)
        daemon.runtime.supervisor.cgroups = ExtensionCgroups(
            placement: CgroupPlacement(delegation: delegation, memoryLimit: memoryLimit), eventLoop: daemon.eventLoop,
            logger: logger)
        try daemon.start()
        return daemon
    }
}

extension Array {
    /// The element of a one-element array.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
