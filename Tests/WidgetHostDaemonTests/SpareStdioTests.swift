import Foundation
import NIOCore
import NIOPosix
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner
@testable import WidgetHostDaemon

/// A cold start spawns on stdin and stdout made while its extension had no process
/// (`SpareStdio`; issue 16: their channel made after the clone was ~75 k instructions beside
/// the extension's start); a spare that can no longer be used is closed and the start makes
/// its own.
@Suite("Stdio made ahead of a cold start", .tags(.process), .serialized)
struct SpareStdioTests {
    @Test("Cold reloads after each exit spawn on the stdio made at that exit; every reply arrives")
    func coldStartsOnSpares() throws {
        let fixture = try DaemonFixture.coldEveryReload()
        let client = try fixture.client()
        let events = try fixture.client()
        _ = try events.call("subscribe")
        let supervisor = fixture.daemon.runtime.supervisor
        let loop = fixture.daemon.runtime.eventLoop
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        let ext = added.widget.extension
        #expect(events.nextNotice { $0.type == .reloadFinished && $0.widgetId == added.widget.id }?.result == .success)
        for round in 1...3 {
            #expect(events.nextNotice { $0.type == .extensionStopped } != nil)
            // The exit is reported after the stop's notice; the spare is made with it.
            let deadline = Date().addingTimeInterval(5)
            while try loop.submit({ supervisor.spareStdio(for: ext)?.readyChannel == nil }).wait(), Date() < deadline {
                usleep(5_000)
            }
            #expect(try loop.submit { supervisor.spareStdio(for: ext)?.readyChannel != nil }.wait())
            // The exit also made the next process's Landlock ruleset, which the start takes.
            let taken = ProcessSpawner.preparedRulesetsTaken
            _ = try client.call("reloadTimelines", ["kind": "WellBehavedWidget"])
            #expect(events.nextNotice { $0.type == .reloadFinished && $0.widgetId == added.widget.id }?.result == .success)
            #expect(try loop.submit { supervisor.startsOnSpareStdio }.wait() == round)
            if SandboxSupport.probe().landlockABI > 0 { #expect(ProcessSpawner.preparedRulesetsTaken > taken) }
        }
    }

    /// A process that writes to stderr the first line it reads on stdin (its `initialize`).
    private static func echoLaunch(in directory: String) throws -> ExtensionLaunch {
        let script = directory + "/echo.sh"
        try "#!/bin/sh\nread line\necho \"got $line\" >&2\nexit 0\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return ExtensionLaunch(
            bundleID: "com.fixture.echo.widget", executable: script, directory: directory, environment: ["PATH": "/usr/bin:/bin"])
    }

    @Test("A spare is used while open, and a closed one is left for stdio of the process's own: both processes read their initialize", arguments: [true, false])
    func spareOrOwn(closedFirst: Bool) throws {
        let directory = NSTemporaryDirectory() + "spare-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let launch = try Self.echoLaunch(in: directory)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let table = ProcessTable(eventLoop: loop)
        let seen = ProcessSeen()
        let spare = try #require(try loop.submit { SpareStdio.make(on: loop) }.wait())
        #expect(try loop.submit { spare.readyChannel != nil }.wait())
        if closedFirst { try loop.submit { spare.close() }.wait() }
        let stderr = try loop.submit { try ExtensionStderr(on: loop) }.wait()
        try loop.submit {
            _ = try ProcessPipes.start(
                launch, limits: ExtensionLimits(), sampleInterval: nil, spawner: ProcessSpawner(), in: table,
                stdio: spare, stderr: stderr, onEvent: seen.record)
        }.wait()
        seen.waitForExit()
        let lines = try loop.submit { seen.all }.wait()
        #expect(lines.count == 1 && lines.first?.hasPrefix(#"got {"id":"initialize-1""#) == true, "\(lines)")
        #expect(try loop.submit { spare.reader.process != nil }.wait() == !closedFirst)
        try loop.submit { stderr.close() }.wait()
        try loop.flatSubmit { table.stopAll() }.wait()
    }

    @Test("A spawn on given stdio that fails leaves all four ends to the caller")
    func failedSpawnLeavesEnds() throws {
        let stdio = try #require(SpawnStdio.make())
        let launch = ExtensionLaunch(
            bundleID: "com.fixture.missing.widget", executable: "/nonexistent/\(UUID().uuidString)", directory: "/",
            environment: [:])
        #expect(throws: SpawnError.self) { try ProcessSpawner().spawn(launch, stdio: stdio) }
        for end in [stdio.stdinRead, stdio.stdinWrite, stdio.stdoutRead, stdio.stdoutWrite] {
            #expect(fcntl(end, F_GETFD) >= 0)
            close(end)
        }
    }
}
