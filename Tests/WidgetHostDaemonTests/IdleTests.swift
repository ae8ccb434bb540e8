import Foundation
import NIOCore
import Testing
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// An idle daemon does not wake: nothing on its event loop runs until something happens
/// (issue 16's target: 0 wake-ups; docs/benchmarks.md figure 3, "idle cost").
@Suite("Idle", .tags(.process))
struct IdleTests {
    @Test("An idle daemon whose widget was served and whose extension stopped is not scheduled for 5 s, past every start-up deadline")
    func noWakeUps() throws {
        let fixture = try SystemdDaemonFixture { $0.host.extensionLifecycle.idleTimeout = 1 }
        try fixture.daemon.start()
        let started = Date()
        defer {
            fixture.daemon.stop()
            try? fixture.daemon.wait()
            fixture.daemon.shutdownEventLoop()
        }
        let thread = try fixture.daemon.eventLoop.submit { Self.currentThread() }.wait()
        do {
            let client = try TestClient(path: fixture.socketPath)
            _ = try client.call("subscribe").get()
            _ = try client.call("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"]).get()
            #expect(client.nextNotice { $0.type == .reloadFinished } != nil)
            #expect(client.nextNotice { $0.type == .extensionStopped } != nil)
        }
        usleep(1_000_000)  // the extension reaped, the client's close handled
        let before = Self.contextSwitches(thread)
        usleep(5_000_000)
        let after = Self.contextSwitches(thread)
        // The window covers the initialize probe's 5 s deadline after start-up.
        #expect(Date().timeIntervalSince(started) > 5.5)
        #expect(before != nil)
        #expect(after == before, "the event loop woke \((after ?? 0) - (before ?? 0)) time(s) while idle")
    }

    /// `/proc/self/task/TID` of the calling thread.
    static func currentThread() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        return "/proc/" + String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Voluntary plus involuntary context switches of a thread: each is a time it was
    /// scheduled off the CPU, so their count is its wake-ups.
    static func contextSwitches(_ thread: String) -> Int? {
        guard let text = try? String(contentsOfFile: "\(thread)/status", encoding: .utf8) else { return nil }
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("voluntary_ctxt_switches:") || $0.hasPrefix("nonvoluntary_ctxt_switches:") }
            .compactMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            .reduce(0, +)
    }
}
