import Foundation
import NIOCore
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// sd_notify(3) as the daemon speaks it, received on a test-owned datagram socket given as
/// NOTIFY_SOCKET. libsystemd reads NOTIFY_SOCKET from the environment, so each test that
/// sets it runs in a child process of its own (an exit test): no other test's daemon can
/// notify the same socket, and no thread of the test runner sees the environment change.
@Suite("systemd notify and watchdog", .tags(.process))
struct SystemdNotifyTests {
    @Test("A notification is KEY=value lines; a status stays on one line")
    func messageFormat() {
        #expect(SystemdNotifier.message([.ready, .status("2 widgets, 1 extension")]) == "READY=1\nSTATUS=2 widgets, 1 extension")
        #expect(SystemdNotifier.message([.reloading(monotonicMicroseconds: 42)]) == "RELOADING=1\nMONOTONIC_USEC=42")
        #expect(SystemdNotifier.message([.stopping, .watchdog]) == "STOPPING=1\nWATCHDOG=1")
        #expect(SystemdNotifier.message([.errno(98), .status("failed: a\nb")]) == "ERRNO=98\nSTATUS=failed: a b")
    }

    @Test("A fatal start error names its errno")
    func errnoOfErrors() {
        #expect(SystemdNotifier.errnoCode(of: ControlSocketError.alreadyServed("/run/widgethost.sock")) == EADDRINUSE)
        #expect(SystemdNotifier.errnoCode(of: POSIXError(.EACCES)) == EACCES)
        #expect(SystemdNotifier.errnoCode(of: IOError(errnoCode: ENOENT, reason: "bind")) == ENOENT)
        #expect(SystemdNotifier.errnoCode(of: SocketActivationError.notAListeningStreamSocket(descriptor: 3, name: "x")) == ENOTSOCK)
        struct ConfigProblem: Error {}
        #expect(SystemdNotifier.errnoCode(of: ConfigProblem()) == EINVAL)
    }

    @Test("Each state reaches NOTIFY_SOCKET; without NOTIFY_SOCKET nothing is sent")
    func adapterStates() async {
        await #expect(processExitsWith: .success) {
            let socket = try NotifySocket()
            let notifier = SystemdNotifier()
            unsetenv("NOTIFY_SOCKET")
            #expect(!notifier.isEnabled)
            #expect(!notifier.notify(.ready), "sent without NOTIFY_SOCKET")

            setenv("NOTIFY_SOCKET", socket.path, 1)
            #expect(notifier.isEnabled)
            #expect(notifier.notify(.ready, .status("starting")))
            #expect(socket.receive(timeout: 5)?.message == "READY=1\nSTATUS=starting")
            let before = SystemdNotifier.monotonicMicroseconds()
            notifier.notify(.reloading(monotonicMicroseconds: SystemdNotifier.monotonicMicroseconds()))
            let after = SystemdNotifier.monotonicMicroseconds()
            let reloading = assignments(socket.receive(timeout: 5)?.message ?? "")
            #expect(reloading["RELOADING"] == "1")
            let usec = UInt64(reloading["MONOTONIC_USEC"] ?? "") ?? 0
            #expect(before <= usec && usec <= after, "MONOTONIC_USEC=\(usec) is not CLOCK_MONOTONIC now")
            notifier.notify(.stopping)
            #expect(socket.receive(timeout: 5)?.message == "STOPPING=1")
            notifier.failed(ControlSocketError.alreadyServed("/run/widgethost.sock"))
            let failed = assignments(socket.receive(timeout: 5)?.message ?? "")
            #expect(failed["ERRNO"] == "\(EADDRINUSE)")
            #expect(failed["STATUS"]?.hasPrefix("failed: another widgethostd is already serving") == true)
            // The environment stays for later notifications (sd_notify's unset_environment = 0).
            #expect(getenv("NOTIFY_SOCKET") != nil)
        }
    }

    @Test("The daemon: READY=1 only once the socket accepts, STATUS as widgets change, RELOADING/READY around rescan and SIGHUP, STOPPING on SIGTERM")
    func daemonLifecycle() async {
        await #expect(processExitsWith: .success) {
            let notify = try NotifySocket()
            setenv("NOTIFY_SOCKET", notify.path, 1)
            let fixture = try SystemdDaemonFixture()
            let socketPath = fixture.socketPath
            let started = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                do { try fixture.daemon.start() } catch { Issue.record("start failed: \(error)") }
                started.signal()
            }
            // READY=1 arrives once: and by then the control socket accepts connections.
            let first = try #require(notify.receive(timeout: 30), "no READY=1")
            #expect(ControlServer.probe(socketPath) == 0, "READY=1 came before the socket accepted connections")
            let ready = assignments(first.message)
            #expect(ready["READY"] == "1")
            #expect(ready["STATUS"] == "0 widgets, 1 extension")
            started.wait()

            let client = try TestClient(path: socketPath)
            _ = try client.call("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"]).get()
            let statuses = notify.receive(until: { assignments($0)["STATUS"]?.hasPrefix("1 widget,") == true })
            #expect(statuses.last.map { assignments($0)["STATUS"]?.hasPrefix("1 widget, 1 extension") } == true, "\(statuses)")
            #expect(!statuses.contains { assignments($0)["READY"] != nil }, "READY=1 outside start and reload: \(statuses)")

            // `widgethost rescan` (and so ExecReload=) gets its answer after READY=1 went out.
            _ = notify.collect(for: 0.3)
            let before = SystemdNotifier.monotonicMicroseconds()
            _ = try client.call("rescan").get()
            let around = notify.collect(for: 0.3).map { assignments($0.message) }
            let reloading = around.firstIndex { $0["RELOADING"] == "1" }
            let readyAgain = around.firstIndex { $0["READY"] == "1" }
            #expect(reloading != nil && readyAgain != nil && reloading! < readyAgain!, "\(around)")
            if let reloading, let usec = UInt64(around[reloading]["MONOTONIC_USEC"] ?? "") {
                #expect(usec >= before)
            } else {
                Issue.record("RELOADING=1 without MONOTONIC_USEC: \(around)")
            }

            // Signals: SIGHUP reloads, SIGTERM stops.
            fixture.daemon.handleSignals()
            usleep(100_000)
            kill(getpid(), SIGHUP)
            let hup = notify.receive(until: { assignments($0)["READY"] == "1" }).map(assignments)
            #expect(hup.first?["RELOADING"] == "1", "\(hup)")
            #expect(hup.last?["READY"] == "1", "\(hup)")

            kill(getpid(), SIGTERM)
            let stop = notify.receive(until: { assignments($0)["STOPPING"] == "1" }).map(assignments)
            #expect(stop.last?["STOPPING"] == "1", "\(stop)")
            try fixture.daemon.wait()
            fixture.daemon.shutdownEventLoop()
            #expect(!FileManager.default.fileExists(atPath: socketPath), "the socket file this daemon bound stays behind")
        }
    }

    @Test("A daemon that cannot start sends ERRNO= and a STATUS= naming the problem")
    func startFailure() async {
        await #expect(processExitsWith: .success) {
            let notify = try NotifySocket()
            setenv("NOTIFY_SOCKET", notify.path, 1)
            let fixture = try SystemdDaemonFixture()
            // Someone already serves the socket path.
            let other = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(fixture.socketPath.utf8)) }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(other, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            listen(other, 1)
            #expect(throws: (any Error).self) { try fixture.daemon.start() }
            let messages = notify.collect(for: 0.5).map { assignments($0.message) }
            #expect(!messages.contains { $0["READY"] != nil }, "\(messages)")
            let failure = messages.first { $0["ERRNO"] != nil }
            #expect(failure?["ERRNO"] == "\(EADDRINUSE)", "\(messages)")
            #expect(failure?["STATUS"]?.contains(fixture.socketPath) == true)
        }
    }

    @Test("sd_watchdog_enabled: WATCHDOG_USEC gives the interval, unless WATCHDOG_PID names another process")
    func watchdogInterval() async {
        await #expect(processExitsWith: .success) {
            unsetenv("WATCHDOG_USEC")
            unsetenv("WATCHDOG_PID")
            #expect(SystemdWatchdog.configuredInterval() == nil)
            setenv("WATCHDOG_USEC", "400000", 1)
            #expect(SystemdWatchdog.configuredInterval() == .milliseconds(400))
            setenv("WATCHDOG_PID", "\(getpid())", 1)
            #expect(SystemdWatchdog.configuredInterval() == .milliseconds(400))
            setenv("WATCHDOG_PID", "\(getpid() + 1)", 1)
            #expect(SystemdWatchdog.configuredInterval() == nil)
            setenv("WATCHDOG_PID", "\(getpid())", 1)
            setenv("WATCHDOG_USEC", "not a number", 1)
            #expect(SystemdWatchdog.configuredInterval() == nil)
        }
        #expect(SystemdWatchdog.pingPeriod(for: .seconds(30)) == .seconds(15))
    }

    @Test("WATCHDOG=1 every half WATCHDOG_USEC from the event loop, and none while the loop is blocked")
    func watchdogFromTheLoop() async {
        await #expect(processExitsWith: .success) {
            let notify = try NotifySocket()
            setenv("NOTIFY_SOCKET", notify.path, 1)
            setenv("WATCHDOG_USEC", "400000", 1)
            let fixture = try SystemdDaemonFixture()
            try fixture.daemon.start()
            defer {
                fixture.daemon.stop()
                try? fixture.daemon.wait()
                fixture.daemon.shutdownEventLoop()
            }
            // Running: a ping about every 200 ms.
            let running = notify.collect(for: 1.3).filter { $0.message == "WATCHDOG=1" }.map(\.at)
            #expect(running.count >= 4, "\(running.count) pings in 1.3 s")
            let gaps = zip(running.dropFirst(), running).map { ($0 - $1).seconds }.sorted()
            let median = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
            #expect(median > 0.15 && median < 0.3, "median gap \(median) s, expected about 0.2 s: \(gaps)")

            // Blocked for 1.5 s: no ping once the block began (one may already be on its way).
            let blockedAt = ContinuousClock.now
            fixture.daemon.eventLoop.blockForTesting(.milliseconds(1500))
            let during = notify.collect(for: 1.3).filter { $0.message == "WATCHDOG=1" }.map(\.at)
            let late = during.filter { $0 - blockedAt > .milliseconds(100) }
            #expect(late.isEmpty, "\(late.count) pings while the loop was blocked")

            // Unblocked: pings again.
            let after = notify.collect(for: 1.0).filter { $0.message == "WATCHDOG=1" }
            #expect(after.count >= 3, "\(after.count) pings in the second after the block")
        }
    }
}
