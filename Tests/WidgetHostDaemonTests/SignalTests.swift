import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Signals reach widgethostd through a signalfd on its event loop, whatever signal mask its
/// parent gave it, and the daemon needs no thread beside that loop's.
@Suite(
    "Signals and the daemon's threads", .tags(.process), .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "\(builtProductsDirectory)/widgethostd"),
        "widgethostd is not built; run `swift build` first"))
struct SignalTests {
    static let handled: [CInt] = [SIGTERM, SIGINT, SIGHUP]

    @Test("Started with SIGTERM, SIGINT and SIGHUP blocked by its parent: SIGHUP rescans and finds a new bundle, SIGTERM stops it")
    func blockedByParent() throws {
        let notify = try NotifySocket()
        let daemon = try SpawnedDaemon(blocking: Self.handled, notifySocket: notify.path)
        let ready = notify.receive(until: { assignments($0)["READY"] == "1" }).map(assignments)
        #expect(ready.last?["STATUS"] == "0 widgets, 1 extension", "\(ready)\n\(daemon.log)")

        try daemon.addBundle("Slow")
        kill(daemon.pid, SIGHUP)
        let reload = notify.receive(until: { assignments($0)["READY"] == "1" }).map(assignments)
        #expect(reload.first?["RELOADING"] == "1", "\(reload)")
        #expect(reload.last?["STATUS"] == "0 widgets, 2 extensions", "SIGHUP did not rescan: \(reload)\n\(daemon.log)")

        kill(daemon.pid, SIGTERM)
        let stop = notify.receive(until: { assignments($0)["STOPPING"] == "1" }).map(assignments)
        #expect(stop.last?["STOPPING"] == "1", "\(stop)")
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")
    }

    @Test("SIGINT stops it too, and a second SIGTERM while it stops changes nothing")
    func interruptThenTerminate() throws {
        let notify = try NotifySocket()
        let daemon = try SpawnedDaemon(notifySocket: notify.path)
        _ = notify.receive(until: { assignments($0)["READY"] == "1" })
        kill(daemon.pid, SIGINT)
        kill(daemon.pid, SIGTERM)
        let stop = notify.receive(until: { assignments($0)["STOPPING"] == "1" }).map(assignments)
        #expect(stop.last?["STOPPING"] == "1", "\(stop)")
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(notify.collect(for: 0.2).filter { assignments($0.message)["STOPPING"] != nil }.isEmpty, "stopped twice")
    }

    @Test("widgethostd runs on its main thread and one event-loop thread, each blocking SIGTERM, SIGINT and SIGHUP")
    func threads() throws {
        let notify = try NotifySocket()
        let daemon = try SpawnedDaemon(notifySocket: notify.path)
        _ = notify.receive(until: { assignments($0)["READY"] == "1" })
        // Exercise it first: an extension served, state written, a rescan, a client gone.
        do {
            let client = try TestClient(path: daemon.socket)
            _ = try client.call("subscribe").get()
            _ = try client.call("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"]).get()
            #expect(client.nextNotice { $0.type == .reloadFinished } != nil)
            _ = try client.call("rescan").get()
        }
        kill(daemon.pid, SIGHUP)
        _ = notify.receive(until: { assignments($0)["READY"] == "1" })

        let threads = Self.threads(of: daemon.pid)
        let listed = threads.map { "\($0.id) \($0.name) SigBlk \(String($0.blocked, radix: 16))" }.joined(separator: "; ")
        #expect(threads.count == 2, "threads: \(listed)")
        #expect(threads.contains { $0.id == daemon.pid && $0.name == "widgethostd" }, "threads: \(listed)")
        #expect(threads.filter { $0.name.hasPrefix("NIO-ELT-") }.count == 1, "threads: \(listed)")
        for thread in threads {
            #expect(thread.blocked & Self.mask == Self.mask, "\(thread.name) (\(thread.id)) lets signals through: \(listed)")
        }
        kill(daemon.pid, SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")
    }

    /// The bits of SIGTERM, SIGINT and SIGHUP in a /proc signal mask.
    static let mask: UInt64 = handled.reduce(0) { $0 | 1 << UInt64($1 - 1) }

    /// `SigBlk` of a /proc/…/status file.
    static func blocked(in statusFile: String) -> UInt64 {
        let text = (try? String(contentsOfFile: statusFile, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("SigBlk:") } ?? ""
        return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
    }

    /// Every thread of `pid`: its id, name (`comm`) and blocked signals.
    static func threads(of pid: pid_t) -> [(id: pid_t, name: String, blocked: UInt64)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let id = pid_t(task) else { return nil }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?"
            return (id, name.trimmingCharacters(in: .whitespacesAndNewlines), blocked(in: "/proc/\(pid)/task/\(task)/status"))
        }.sorted { $0.id < $1.id }
    }
}

/// The built widgethostd started with `posix_spawn`, so that the test chooses its signal
/// mask: one fixture extension (WellBehaved), a temporary directory, systemd's notify socket.
final class SpawnedDaemon {
    let directory: String
    let pid: pid_t
    private var exitStatus: CInt?
    var socket: String { "\(directory)/s.sock" }
    var plugins: String { "\(directory)/plugins" }
    var log: String { (try? String(contentsOfFile: "\(directory)/widgethostd.log", encoding: .utf8)) ?? "" }

    init(blocking signals: [CInt] = [], notifySocket: String) throws {
        directory = try makeShortTemporaryDirectory()
        try "boot-1\n".write(toFile: "\(directory)/boot_id", atomically: true, encoding: .utf8)
        let arguments = [
            "\(builtProductsDirectory)/widgethostd", "--socket", "\(directory)/s.sock", "--state", "\(directory)/state",
            "--plugins", "\(directory)/plugins", "--app-groups", "\(directory)/groups",
            "--boot-id-file", "\(directory)/boot_id",
        ]
        let environment = ["PATH=/usr/local/bin:/usr/bin:/bin", "TZ=UTC", "NOTIFY_SOCKET=\(notifySocket)"]
        try Self.writeBundle("WellBehaved", into: "\(directory)/plugins")
        pid = try Self.spawn(arguments, environment: environment, blocking: signals, log: "\(directory)/widgethostd.log")
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A bundle served by the fixture extension, whose behaviour follows `name`.
    func addBundle(_ name: String) throws {
        try Self.writeBundle(name, into: plugins)
    }

    private static func writeBundle(_ name: String, into plugins: String) throws {
        let bundle = "\(plugins)/\(name).appex"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        // The extension's code lives in its bundle: the sandbox lets it read nothing outside.
        try FileManager.default.copyItem(atPath: fixtureScript, toPath: "\(bundle)/extension.py")
        try "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/extension.py\" \"$@\"\n".write(
            toFile: "\(bundle)/\(name)", atomically: true, encoding: .utf8)
        chmod("\(bundle)/\(name)", 0o755)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>com.fixture.\(name.lowercased()).widget</string>
            <key>CFBundleExecutable</key><string>\(name)</string>
            <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>
            </dict></plist>
            """.write(toFile: "\(bundle)/Info.plist", atomically: true, encoding: .utf8)
    }

    /// The exit status, once the process has exited within `timeout` seconds; nil if it has
    /// not (or was killed by a signal).
    func waitForExit(timeout: TimeInterval = 10) -> CInt? {
        let end = Date().addingTimeInterval(timeout)
        while exitStatus == nil, Date() < end {
            var status: CInt = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
            } else {
                usleep(10_000)
            }
        }
        return exitStatus.flatMap { $0 >= 0 ? $0 : nil }
    }

    private static func spawn(_ arguments: [String], environment: [String], blocking signals: [CInt], log: String) throws
        -> pid_t
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in signals { sigaddset(&mask, number) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }
}
