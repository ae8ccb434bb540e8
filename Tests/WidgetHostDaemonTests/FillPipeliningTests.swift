import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A fill (widgets added one `addWidget` each, many requests in flight on the control
/// connection) against a pipelining extension: each new widget's `placeholder/get` and
/// `timeline/get` are written ahead, so they go out many a write, not one widget's pair per
/// answer (issue 16, figure 4).
@Suite("A pipelined fill", .tags(.process))
struct FillPipeliningTests {
    static let count = 100

    static func addLines(_ count: Int, firstID: Int) -> String {
        (0..<count).map {
            #"{"jsonrpc":"2.0","id":\#(firstID + $0),"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"systemSmall"}}"#
        }.joined(separator: "\n")
    }

    static func waitUntilServed(_ id: String, _ client: TestClient, timeout: TimeInterval = 30) throws -> Bool {
        let end = Date() + timeout
        while Date() < end {
            let status: StatusResult = try client.result("status", ["id": .string(id)])
            if status.widgets.first?.currentEntry.source == .timeline { return true }
            usleep(20_000)
        }
        return false
    }

    @Test("100 widgets added while the extension is busy: their 200 requests go out at least four a write, and every widget is served")
    func manyPerWrite() throws {
        let fixture = try DaemonFixture(
            configure: {
                $0.budget.enforce = false
                // The extension is stopped while the adds are handled; nothing may time out meanwhile.
                $0.limits.placeholderTimeout = 30
                $0.limits.timelineTimeout = 30
            },
            environment: ["WIDGETHOST_FIXTURE_PIPELINING": "1"])
        let client = try fixture.client()
        let first: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        let firstServed = try Self.waitUntilServed(first.widget.id, client)
        try #require(firstServed)
        let pids = processes(mentioning: fixture.directory)
        try #require(!pids.isEmpty)
        let before = try WakeUpTests.counts(fixture).writes

        // Busy: stopped, so that every add is handled before any answer is read.
        for pid in pids { kill(pid, SIGSTOP) }
        client.send(raw: Self.addLines(Self.count, firstID: 1000))
        var ids: [String] = []
        while ids.count < Self.count, let message = client.receive() {
            guard case .message(.response(_, let result)) = message else { continue }
            ids.append(try result.decode(as: AddWidgetResult.self).widget.id)
        }
        for pid in pids { kill(pid, SIGCONT) }
        try #require(ids.count == Self.count)

        // The extension answers in order: the last widget served means all are.
        let lastServed = try Self.waitUntilServed(ids.last!, client)
        #expect(lastServed)
        for id in ids.prefix(3) {
            let served = try Self.waitUntilServed(id, client, timeout: 1)
            #expect(served, "\(id)")
        }
        let writes = try WakeUpTests.counts(fixture).writes - before
        // One running and 64 ahead are written while the adds are handled (the first 32 adds,
        // two requests each), then 32 at a time once 32 are answered: about 37 writes. One
        // widget's pair per answer would be 100.
        #expect(writes > 0)
        #expect(writes * 4 <= 2 * Self.count, "\(writes) writes for \(2 * Self.count) requests")
    }
}
