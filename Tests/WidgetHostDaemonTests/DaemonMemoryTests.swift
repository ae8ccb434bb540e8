import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon
@testable import WidgetHostRunner

/// The daemon runs for months, reloading all day: a reload must cost nothing that stays.
@Suite("Daemon memory over many reloads", .serialized)
struct DaemonMemoryTests {
    @Test("1,000 reloads through a real extension leave the daemon's memory where it was (it grew 4 KiB a reload)")
    func reloadsDoNotLeak() throws {
        let fixture = try DaemonFixture(configure: { $0.budget.enforce = false; $0.policy.minReloadInterval = 0 })
        let client = try fixture.client()
        _ = try client.call("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        func reload(_ count: Int) throws {
            for _ in 0..<count {
                _ = try client.call("reloadTimelines", ["kind": "WellBehavedWidget"])
                usleep(2_000)  // Lets each reload run (and be sampled) before the next request coalesces into it.
            }
        }
        try reload(200)
        usleep(200_000)
        let before = FootprintReader.rssAnonKiB()
        try reload(1_000)
        usleep(200_000)
        let grown = FootprintReader.rssAnonKiB() - before
        #expect(grown < 1024, "RssAnon grew \(grown) KiB over 1,000 reloads")
        let status = try client.call("status", ["id": "w1"]).get()
        #expect(status["widgets"] != nil)
    }
}

extension FootprintReader {
    /// This process's own footprint (RssAnon + VmSwap), in KiB.
    static func rssAnonKiB() -> Int {
        (FootprintReader().footprint(ofProcess: getpid()) ?? 0) / 1024
    }
}
