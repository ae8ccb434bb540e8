import Foundation
import NIOCore
import NIOPosix
import Testing
import WidgetHostBundles
import WidgetHostCore
import WidgetHostProtocol
import WidgetHostRunner
@testable import WidgetHostDaemon

/// An extension's stderr is one pipe kept between its processes (issue 16: a pipe channel per
/// process cost ~67 k instructions a cold start): each process's lines are its own, its last
/// ones, an unfinished line too, read before its exit is reported.
@Suite("The stderr pipe kept between an extension's processes", .tags(.process), .serialized)
struct ExtensionStderrTests {
    /// A process that writes a line and an unfinished one to stderr and exits at once.
    private static func launch(_ name: String, in directory: String) throws -> ExtensionLaunch {
        let script = directory + "/stderr.sh"
        if !FileManager.default.fileExists(atPath: script) {
            try "#!/bin/sh\necho \"$NAME: one\" >&2\nprintf '%s: unfinished' \"$NAME\" >&2\nexit 0\n"
                .write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
        }
        return ExtensionLaunch(
            bundleID: "com.fixture.stderr.widget", executable: script, directory: directory,
            environment: ["PATH": "/usr/bin:/bin", "NAME": name])
    }

    @Test("Two processes in turn on one pipe: each gets its own lines before its exit, through one channel")
    func linesPerProcess() throws {
        let directory = NSTemporaryDirectory() + "stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let table = ProcessTable(eventLoop: loop)
        let stderr = try loop.submit { try ExtensionStderr(on: loop) }.wait()
        for name in ["first", "second", "third"] {
            let launch = try Self.launch(name, in: directory)
            let seen = ProcessSeen()
            try loop.submit {
                _ = try ProcessPipes.start(
                    launch, limits: ExtensionLimits(), sampleInterval: nil, spawner: ProcessSpawner(), in: table,
                    stderr: stderr, onEvent: seen.record)
            }.wait()
            seen.waitForExit()
            #expect(seen.hasExited)
            // Read in the same turn as the exit's report: nothing of it comes later.
            let atExit = try loop.submit { seen.all }.wait()
            #expect(atExit == ["\(name): one", "\(name): unfinished"])
        }
        #expect(try loop.submit { stderr.channelsOpened }.wait() == 1)
        try loop.submit { stderr.close() }.wait()
        try loop.flatSubmit { table.stopAll() }.wait()
    }

    @Test("A daemon's cold reloads of one extension: 10 MiB on stderr each time, one pipe and one channel for all, each reply arrives")
    func keptByTheDaemon() throws {
        let fixture = try DaemonFixture.coldEveryReload(extensions: ["StderrFlood"])
        let client = try fixture.client()
        let events = try fixture.client()
        _ = try events.call("subscribe")
        let supervisor = fixture.daemon.runtime.supervisor
        let loop = fixture.daemon.runtime.eventLoop
        let ext = "com.fixture.stderrflood.widget"
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "StderrFloodWidget", "family": "systemSmall"])
        #expect(events.nextNotice { $0.type == .reloadFinished && $0.widgetId == added.widget.id }?.result == .success)
        let pipe = try #require(try loop.submit { supervisor.keptStderr(for: ext) }.wait())
        for _ in 0..<2 {
            // The process has gone (idle timeout 0) before the next reload starts another.
            #expect(events.nextNotice { $0.type == .extensionStopped } != nil)
            _ = try client.call("reloadTimelines", ["kind": "StderrFloodWidget"])
            #expect(events.nextNotice { $0.type == .reloadFinished && $0.widgetId == added.widget.id }?.result == .success)
        }
        #expect(try loop.submit { supervisor.keptStderr(for: ext) }.wait() === pipe)
        #expect(try loop.submit { pipe.channelsOpened }.wait() == 1)
    }

    @Test("The spawn with a given stderr leaves it open and gives no read end")
    func spawnWithGivenStderr() throws {
        let directory = NSTemporaryDirectory() + "stderr-spawn-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ends = try #require(CloseOnExecPipe.make())
        defer { close(ends[0]) }
        let spawned = try ProcessSpawner().spawn(try Self.launch("given", in: directory), stderr: ends[1])
        #expect(spawned.stderrRead == -1)
        #expect(fcntl(ends[1], F_GETFD) >= 0, "the caller's end is still open")
        close(ends[1])
        var status: CInt = 0
        #expect(waitpid(spawned.pid, &status, 0) == spawned.pid)
        close(spawned.stdinWrite)
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(ends[0], &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self) == "given: one\ngiven: unfinished")
        var more = [UInt8](repeating: 0, count: 16)
        while read(spawned.stdoutRead, &more, more.count) > 0 {}
        close(spawned.stdoutRead)
    }
}
