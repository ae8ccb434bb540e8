import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

/// The footprint sampler's timer is the extension's, kept between its processes (issue 16: a
/// `LoopTimer` made and closed per process cost ~90 k instructions a cold start), and samples
/// whichever process armed it last.
@Suite("The sampler timer kept between processes", .tags(.process), .serialized)
struct SamplerTimerTests {
    final class Process: Sendable {}
    final class Samples: Sendable {
        let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    @Test("Armed by one process and then another: the first one's disarm leaves the second sampling")
    func ownership() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let timer = try loop.submit { try SamplerTimer(on: loop) }.wait()
        let (first, second) = (Process(), Process())
        let samples = Samples()
        try loop.submit {
            timer.arm(every: 0.01, for: first) { samples.add("first") }
            timer.arm(every: 0.01, for: second) { samples.add("second") }
            timer.disarm(for: first)
        }.wait()
        #expect(try loop.submit { timer.isArmed(for: second) && !timer.isArmed(for: first) }.wait())
        let deadline = Date().addingTimeInterval(10)
        while samples.all.count < 2, Date() < deadline { usleep(5_000) }
        #expect(samples.all.count >= 2)
        #expect(samples.all.allSatisfy { $0 == "second" })
        try loop.submit { timer.disarm(for: second) }.wait()
        #expect(try loop.submit { !timer.isArmed(for: second) }.wait())
        try loop.submit { timer.close() }.wait()
    }

    @Test("Each process of an extension is sampled on the one timer: both exceed the memory limit and are killed by a sample, long before their reply")
    func keptAcrossProcesses() throws {
        let fixture = try DaemonFixture.coldEveryReload(extensions: ["Allocator"]) { $0.backoff.initial = 0 }
        let client = try fixture.client()
        let events = try fixture.client()
        _ = try events.call("subscribe")
        let supervisor = fixture.daemon.runtime.supervisor
        let loop = fixture.daemon.runtime.eventLoop
        let ext = "com.fixture.allocator.widget"

        // The add's first timeline: the process allocates 64 MiB, then answers 2 s later.
        let asked = Date()
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "AllocatorWidget", "family": "systemSmall"])
        let first = events.nextNotice { $0.type == .reloadFinished && $0.widgetId == added.widget.id }
        #expect(first?.result == .memoryLimitExceeded)
        #expect(Date().timeIntervalSince(asked) < 1.5, "killed by a sample, not at the reply")
        let timer = try #require(try loop.submit { supervisor.keptSamplerTimer(for: ext) }.wait())

        // A new process for the next reload, sampled on the same timer.
        let again = Date()
        let reload: ReloadResult = try client.result("reloadTimelines", ["kind": "AllocatorWidget", "foreground": true])
        // With no backoff the failed reload may already be running again: this request joins it.
        let outcome = reload.outcomes.first
        #expect(outcome?.outcome == .started || outcome?.reason == .reloadInProgress, "\(String(describing: outcome))")
        let second = events.nextNotice { $0.type == .reloadFinished && $0.widgetId == added.widget.id }
        #expect(second?.result == .memoryLimitExceeded)
        #expect(Date().timeIntervalSince(again) < 1.5, "killed by a sample, not at the reply")
        #expect(try loop.submit { supervisor.keptSamplerTimer(for: ext) }.wait() === timer)
        #expect(timer.firings >= 2)
    }
}
