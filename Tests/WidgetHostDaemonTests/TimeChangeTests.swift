import CSystemd
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Significant time changes: the time-zone watch against a temporary directory standing in
/// for /etc, and the clock-set timerfd as far as a test can drive it. Setting the clock
/// needs CAP_SYS_TIME; where the test runner has it, one test sets CLOCK_REALTIME to its
/// own current value (a jump of microseconds) to make the kernel cancel the timer for real.
@Suite("Significant time changes", .tags(.process))
struct TimeChangeTests {
    /// Reports from a monitor, collected from its event loop.
    final class Reports: Sendable {
        private let received = Mutex<[[TimeChange]]>([])
        func append(_ changes: [TimeChange]) { received.withLock { $0.append(changes) } }
        var all: [[TimeChange]] { received.withLock { $0 } }

        /// Waits up to `timeout` seconds for `count` reports.
        func wait(for count: Int, timeout: TimeInterval = 5) -> [[TimeChange]] {
            let end = Date().addingTimeInterval(timeout)
            while all.count < count && Date() < end { usleep(10_000) }
            return all
        }
    }

    /// A directory with `localtime` → UTC, watched by a monitor on its own event loop.
    final class ZoneFixture {
        let directory: String
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let reports = Reports()
        let monitor: TimeChangeMonitor
        var localtime: String { "\(directory)/localtime" }

        init() throws {
            directory = try makeShortTemporaryDirectory()
            symlink("/usr/share/zoneinfo/UTC", "\(directory)/localtime")
            let reports = reports
            monitor = try TimeChangeMonitor(
                localtimePath: "\(directory)/localtime", watchClock: false, on: group.next(),
                settle: .milliseconds(50)
            ) { reports.append($0) }
            try monitor.start().wait()
        }

        deinit {
            monitor.stop()
            try? group.syncShutdownGracefully()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test("timedatectl set-timezone (a new link renamed over localtime) is one time-zone change")
    func renameOverLink() throws {
        let fixture = try ZoneFixture()
        symlink("/usr/share/zoneinfo/Europe/Berlin", "\(fixture.directory)/.localtime.new")
        rename("\(fixture.directory)/.localtime.new", fixture.localtime)
        #expect(fixture.reports.wait(for: 1) == [[.timeZone]])
        usleep(200_000)
        #expect(fixture.reports.all.count == 1)
    }

    @Test("ln -sf (unlink, then a new link) is one time-zone change, not two")
    func unlinkAndRelink() throws {
        let fixture = try ZoneFixture()
        unlink(fixture.localtime)
        symlink("/usr/share/zoneinfo/America/New_York", fixture.localtime)
        #expect(fixture.reports.wait(for: 1) == [[.timeZone]])
        usleep(200_000)
        #expect(fixture.reports.all.count == 1, "\(fixture.reports.all)")
    }

    @Test("A zone file rewritten in place is a time-zone change")
    func rewrittenInPlace() throws {
        let fixture = try ZoneFixture()
        unlink(fixture.localtime)
        try Data("TZif".utf8).write(to: URL(fileURLWithPath: fixture.localtime))
        _ = fixture.reports.wait(for: 1)
        let before = fixture.reports.all.count
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.localtime))
        try handle.write(contentsOf: Data("2".utf8))
        try handle.close()
        #expect(fixture.reports.wait(for: before + 1).count == before + 1)
    }

    @Test("Other files in the directory change nothing")
    func otherFiles() throws {
        let fixture = try ZoneFixture()
        try "x".write(toFile: "\(fixture.directory)/hostname", atomically: true, encoding: .utf8)
        symlink("/usr/share/zoneinfo/UTC", "\(fixture.directory)/localtime.bak")
        unlink("\(fixture.directory)/localtime.bak")
        usleep(300_000)
        #expect(fixture.reports.all.isEmpty)
    }

    @Test("After stop() nothing is reported")
    func stopped() throws {
        let fixture = try ZoneFixture()
        fixture.monitor.stop()
        unlink(fixture.localtime)
        symlink("/usr/share/zoneinfo/Asia/Tokyo", fixture.localtime)
        usleep(300_000)
        #expect(fixture.reports.all.isEmpty)
    }

    @Test("A missing directory is an error that names it")
    func missingDirectory() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        #expect {
            _ = try TimeChangeMonitor(localtimePath: "/nonexistent-widgethost/localtime", on: group.next()) { _ in }
        } throws: { error in
            (error as? TimeWatchError)?.description.contains("/nonexistent-widgethost") == true
        }
    }

    @Test("inotify events are split and matched by name; a queue overflow counts as a change")
    func parseInotifyEvents() {
        func event(mask: UInt32, name: String, padTo length: Int = 16) -> [UInt8] {
            var bytes: [UInt8] = []
            func word(_ value: UInt32) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
            word(1)  // wd
            word(mask)
            word(0)  // cookie
            let name = Array(name.utf8)
            let padded = name.isEmpty ? 0 : max(length, name.count + 1)
            word(UInt32(padded))
            bytes += name + [UInt8](repeating: 0, count: padded - name.count)
            return bytes
        }
        let create = UInt32(IN_CREATE)
        let buffer = event(mask: UInt32(IN_DELETE), name: "hostname") + event(mask: create, name: "localtime")
        #expect(
            TimeZoneWatch.parse(buffer[...])
                == [.init(mask: UInt32(IN_DELETE), name: "hostname"), .init(mask: create, name: "localtime")])
        #expect(TimeZoneWatch.concernsFile(named: "localtime", events: buffer[...]))
        #expect(!TimeZoneWatch.concernsFile(named: "localtime", events: event(mask: create, name: "localtime.bak")[...]))
        #expect(!TimeZoneWatch.concernsFile(named: "localtime", events: event(mask: UInt32(IN_OPEN), name: "localtime")[...]))
        #expect(TimeZoneWatch.concernsFile(named: "localtime", events: event(mask: UInt32(IN_Q_OVERFLOW), name: "")[...]))
        // A truncated buffer yields the whole events only.
        #expect(TimeZoneWatch.parse(buffer[0..<10]) == [])
    }

    @Test("A timerfd read means: 8 bytes an expiry, ECANCELED a clock set, EAGAIN nothing, anything else an error")
    func interpretTimerReads() throws {
        #expect(try ClockSetTimer.interpret(bytesRead: 8, errno: 0, expirations: 1) == .expired(count: 1))
        #expect(try ClockSetTimer.interpret(bytesRead: -1, errno: ECANCELED, expirations: 0) == .clockSet(jump: 0))
        #expect(try ClockSetTimer.interpret(bytesRead: -1, errno: EAGAIN, expirations: 0) == .nothing)
        #expect(throws: TimeWatchError(call: "read(timerfd)", code: EBADF)) {
            try ClockSetTimer.interpret(bytesRead: -1, errno: EBADF, expirations: 0)
        }
        #expect(throws: TimeWatchError.self) { try ClockSetTimer.interpret(bytesRead: 3, errno: 0, expirations: 0) }
    }

    @Test("The clock-set timer is armed at the end of time, and a read with nothing pending leaves it armed")
    func timerArmed() throws {
        let timer = try ClockSetTimer()
        #expect(timer.isArmed)
        var current = itimerspec()
        timerfd_gettime(timer.descriptor, &current)
        #expect(current.it_value.tv_sec > 100 * 365 * 86_400, "expires in \(current.it_value.tv_sec) s")
        #expect(current.it_interval.tv_sec == 0 && current.it_interval.tv_nsec == 0)
        #expect(try timer.read() == .nothing)
        #expect(timer.isArmed)
    }

    /// True when this process may set the clock (CAP_SYS_TIME, bit 25 of CapEff).
    static let maySetClock: Bool = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << 25) != 0
    }()

    @Test(
        "Setting the wall clock cancels the timer with ECANCELED; it is re-armed and the set is reported",
        .enabled(if: maySetClock, "needs CAP_SYS_TIME to set CLOCK_REALTIME; the read logic is tested above"))
    func realClockSet() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let directory = try makeShortTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        symlink("/usr/share/zoneinfo/UTC", "\(directory)/localtime")
        let reports = Reports()
        // minimumJump 0: this test's set moves the clock by microseconds only.
        let monitor = try TimeChangeMonitor(
            localtimePath: "\(directory)/localtime", on: group.next(), settle: .milliseconds(20), minimumJump: 0
        ) { reports.append($0) }
        try monitor.start().wait()
        defer { monitor.stop() }
        let timer = try ClockSetTimer()

        // Set CLOCK_REALTIME to what it already is: a "set" for the kernel, no change for anyone.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        #expect(clock_settime(CLOCK_REALTIME, &now) == 0, "clock_settime: \(String(cString: strerror(errno)))")

        let outcome = try timer.read()
        guard case .clockSet(let jump) = outcome else {
            Issue.record("read after a clock set gave \(outcome)")
            return
        }
        #expect(abs(jump) < 0.5, "a set to the current time jumped \(jump) s")
        #expect(timer.isArmed, "not re-armed after ECANCELED")
        #expect(try timer.read() == .nothing)
        #expect(reports.wait(for: 1) == [[.clockSet]])
    }

    @Test("A time-zone change reaches the core: every widget gets an exempt reload for a significant time change")
    func daemonReloadsOnZoneChange() throws {
        let fixture = try SystemdDaemonFixture()
        try fixture.daemon.start()
        defer {
            fixture.daemon.stop()
            try? fixture.daemon.wait()
            fixture.daemon.shutdownEventLoop()
        }
        let client = try TestClient(path: fixture.socketPath)
        _ = try client.call("subscribe").get()
        _ = try client.call("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"]).get()
        #expect(client.nextNotice { $0.type == .reloadFinished } != nil)

        let link = fixture.localtimePath
        symlink("/usr/share/zoneinfo/Europe/Berlin", link + ".new")
        rename(link + ".new", link)
        let reload = client.nextNotice(timeout: 10) { $0.type == .reloadStarted }
        #expect(reload != nil, "no reload after the time zone changed")
        #expect(reload?.charge == .exempt(.significantTimeChange), "charge: \(String(describing: reload?.charge))")
    }
}

extension TimeChangeTests {
    @Test(
        "A clock set reaches the core: every widget gets an exempt reload for a significant time change",
        .enabled(if: maySetClock, "needs CAP_SYS_TIME to set CLOCK_REALTIME"))
    func daemonReloadsOnClockSet() throws {
        // minimumClockSet 0: this test's set moves the clock by microseconds only.
        let fixture = try SystemdDaemonFixture { $0.minimumClockSet = 0 }
        try fixture.daemon.start()
        defer {
            fixture.daemon.stop()
            try? fixture.daemon.wait()
            fixture.daemon.shutdownEventLoop()
        }
        let client = try TestClient(path: fixture.socketPath)
        _ = try client.call("subscribe").get()
        _ = try client.call("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"]).get()
        #expect(client.nextNotice { $0.type == .reloadFinished } != nil)

        // Twice: after the first set the daemon must watch again (NIO closed the timer's channel).
        for _ in 0..<2 {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            #expect(clock_settime(CLOCK_REALTIME, &now) == 0, "clock_settime: \(String(cString: strerror(errno)))")
            let reload = client.nextNotice(timeout: 10) { $0.type == .reloadStarted }
            #expect(reload != nil, "no reload after the clock was set")
            #expect(reload?.charge == .exempt(.significantTimeChange), "charge: \(String(describing: reload?.charge))")
            #expect(client.nextNotice { $0.type == .reloadFinished } != nil)
        }
    }
}

extension ClockSetTimer {
    /// Reads the descriptor here, as the event loop would after it polled readable.
    func read() throws -> ReadOutcome {
        var expirations: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &expirations) { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        return try outcome(bytesRead: count, errno: count < 0 ? errno : 0, expirations: expirations)
    }
}
