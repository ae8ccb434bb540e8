import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

@Suite("Daemon end to end", .tags(.process), .serialized)
struct DaemonEndToEndTests {
    @Test("Adding a widget gives an exempt reload: placeholder first, then the entry")
    func addWidget() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        _ = try client.call("subscribe")
        let added: AddWidgetResult = try client.result(
            "addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        #expect(added.reload.outcome == .started)
        #expect(added.reload.budgeted == false)
        let placeholder = client.nextNotice { $0.type == .entryChanged }
        #expect(placeholder?.detail == "placeholder")
        let entry = client.nextNotice { $0.type == .entryChanged }
        #expect(entry?.detail == "timeline")
        #expect(entry?.entry?.content["fixture"] == "wellBehaved")
        let status: StatusResult = try client.result("status", ["id": .string(added.widget.id)])
        #expect(status.widgets.first?.lastOutcome?.result == .success)
        #expect(status.widgets.first?.budget.used == 0)
    }

    @Test("reloadTimelines is budgeted; a second one inside 5 minutes is deferred with until; foreground is exempt")
    func reloadRules() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        _ = try waitUntil { (try? client.result("status", ["id": .string(added.widget.id)], as: StatusResult.self))?.widgets.first?.lastOutcome != nil }
        let first: ReloadResult = try client.result("reloadTimelines", ["kind": "WellBehavedWidget"])
        #expect(first.outcomes.map(\.outcome) == [.started])
        #expect(first.outcomes.first?.budgeted == true)
        let second: ReloadResult = try client.result("reloadTimelines", ["kind": "WellBehavedWidget"])
        #expect(second.outcomes.first?.outcome == .deferred)
        #expect(second.outcomes.first?.reason == .minInterval || second.outcomes.first?.reason == .reloadInProgress)
        let foreground: ReloadResult = try client.result(
            "reloadTimelines", ["kind": "WellBehavedWidget", "foreground": true])
        #expect(foreground.outcomes.first?.budgeted == false)
        let status: StatusResult = try client.result("status", ["id": .string(added.widget.id)])
        #expect(status.widgets.first?.budget.used == 1)
        #expect(status.widgets.first?.budget.limit == 70)
    }

    @Test("Bad input gets the right JSON-RPC error and the connection stays usable")
    func badInput() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        let cases: [(String, Int)] = [
            ("this is not json", -32700),
            ("[]", -32600),
            (#"{"jsonrpc":"1.0","id":1,"method":"status"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":2,"method":"fly"}"#, -32601),
            (#"{"jsonrpc":"2.0","id":3,"method":"addWidget","params":{"kind":5}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":4,"method":"addWidget","params":{"kind":"Nope","family":"systemSmall"}}"#, -32000),
            (#"{"jsonrpc":"2.0","id":5,"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"huge"}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":6,"method":"removeWidget","params":{"id":"w99"}}"#, -32000),
        ]
        for (line, code) in cases {
            client.send(raw: line)
            guard case .message(.errorResponse(_, let error))? = client.receive() else {
                Issue.record("no error for \(line)")
                continue
            }
            #expect(error.code == code, "\(line) → \(error)")
        }
        let status: StatusResult = try client.result("status")
        #expect(status.widgets.isEmpty)
    }

    @Test("An oversized line is answered and the next line still works")
    func oversizedLine() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        client.send(raw: String(repeating: "x", count: 1024 * 1024 + 10))
        guard case .message(.errorResponse(_, let error))? = client.receive() else {
            Issue.record("no error")
            return
        }
        #expect(error.code == -32600)
        #expect(error.message.contains("longer than"))
        #expect(throws: Never.self) { try client.result("status", as: StatusResult.self) }
    }

    @Test("An extension written in Python from docs/protocol.md alone serves a timeline")
    func extensionsList() throws {
        let fixture = try DaemonFixture(extensions: ["WellBehaved", "Slow"])
        let client = try fixture.client()
        let extensions: ExtensionsResult = try client.result("extensions")
        #expect(extensions.loaded.map(\.id) == ["com.fixture.slow.widget", "com.fixture.wellbehaved.widget"])
        #expect(extensions.loaded.first?.widgets.first?.supportedFamilies == [.systemSmall, .systemMedium])
    }
}

func waitUntil(timeout: TimeInterval = 15, _ condition: () throws -> Bool) throws -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if try condition() { return true }
        usleep(20_000)
    }
    return false
}

extension Tag {
    /// Tests that start real processes or sockets; run alone with `swift test --filter .tags:process`.
    @Tag static var process: Self
}
