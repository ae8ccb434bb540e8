import Foundation
import Testing
import WidgetHostProtocol
@testable import WidgetHostDaemon

/// JSON-RPC batches on the real daemon's control socket: members run in order as separate
/// lines would, one array answers them, the limits hold. (The specification's own examples
/// run against the widgethostd binary in EndToEndTests/SpecificationExampleTests.)
@Suite("Control batches", .tags(.process), .serialized)
struct ControlBatchTests {
    /// The next line, which must be a batch's array of plain messages.
    private func receiveBatch(_ client: TestClient) throws -> [JSONRPCMessage] {
        while true {
            let line = try #require(client.receiveLine(), "no reply")
            switch line {
            case .single(.message(.notification)): continue  // an event of a subscription
            case .single(let single): throw BatchTestError("expected an array, got \(single)")
            case .batch(let members):
                return try members.map { member in
                    guard case .message(let message) = member else { throw BatchTestError("invalid member \(member)") }
                    return message
                }
            }
        }
    }

    /// Sends `line`, then a sentinel request; true when the sentinel's reply is the next line.
    private func answersNothing(_ client: TestClient, to line: String) -> Bool {
        client.send(raw: line)
        client.send(raw: #"{"jsonrpc":"2.0","id":"sentinel","method":"status"}"#)
        guard case .single(.message(.response(.string("sentinel"), _)))? = client.receiveLine() else { return false }
        return true
    }

    private func views(of id: String, _ client: TestClient) throws -> Int? {
        let status: StatusResult = try client.result("status", ["id": .string(id)])
        return status.widgets.first?.budget.views
    }

    @Test("Members run in order, as separate lines would: each sees what the ones before it did")
    func order() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        client.send(
            raw: #"[{"jsonrpc":"2.0","id":1,"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"systemSmall"}},"#
                + #"{"jsonrpc":"2.0","id":2,"method":"getCurrentConfigurations"},"#
                + #"{"jsonrpc":"2.0","id":3,"method":"removeWidget","params":{"id":"w1"}},"#
                + #"{"jsonrpc":"2.0","id":4,"method":"getCurrentConfigurations"}]"#)
        let replies = try receiveBatch(client)
        #expect(replies.count == 4)
        guard replies.count == 4,
            case .response(.number(1), let added) = replies[0], case .response(.number(2), let before) = replies[1],
            case .response(.number(3), let removed) = replies[2], case .response(.number(4), let after) = replies[3]
        else {
            Issue.record("replies out of order or failed: \(replies)")
            return
        }
        #expect(try added.decode(as: AddWidgetResult.self).widget.id == "w1")
        #expect(try before.decode(as: [WidgetInfo].self).map(\.id) == ["w1"])
        #expect(try removed.decode(as: WidgetInfo.self).id == "w1")
        #expect(try after.decode(as: [WidgetInfo].self).isEmpty)
    }

    @Test("A member answered later (rescan) keeps its place; the array comes once it is in")
    func laterMember() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        client.send(
            raw: #"[{"jsonrpc":"2.0","id":"r","method":"rescan"},{"jsonrpc":"2.0","id":"s","method":"status"},"#
                + #"{"jsonrpc":"2.0","method":"rescan"},{"jsonrpc":"2.0","id":"e","method":"extensions"}]"#)
        let replies = try receiveBatch(client)
        #expect(replies.count == 3)
        guard replies.count == 3, case .response(.string("r"), let rescan) = replies[0],
            case .response(.string("s"), _) = replies[1], case .response(.string("e"), let extensions) = replies[2]
        else {
            Issue.record("replies out of order or failed: \(replies)")
            return
        }
        #expect(try rescan.decode(as: ExtensionsResult.self).loaded.map(\.id) == ["com.fixture.wellbehaved.widget"])
        #expect(try extensions.decode(as: ExtensionsResult.self).loaded.count == 1)
    }

    @Test("A notification is run and answered with nothing; a batch of notifications only gets nothing at all")
    func notificationsRun() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        #expect(answersNothing(client, to: #"{"jsonrpc":"2.0","method":"addWidget","params":{"kind":"WellBehavedWidget","family":"systemSmall"}}"#))
        let configurations: [WidgetInfo] = try client.result("getCurrentConfigurations")
        #expect(configurations.map(\.id) == ["w1"], "the notification was not run")

        let recordView = #"{"jsonrpc":"2.0","method":"recordView","params":{"id":"w1"}}"#
        #expect(answersNothing(client, to: "[\(recordView),\(recordView),\(recordView)]"))
        #expect(try views(of: "w1", client) == 3)
        // A notification's errors are not answered either.
        #expect(answersNothing(client, to: #"[{"jsonrpc":"2.0","method":"fly"},{"jsonrpc":"2.0","method":"recordView","params":{"id":5}}]"#))
    }

    @Test("A batch over control.max_batch is one -32600 and none of it runs; one at the limit runs", arguments: [3, 5])
    func maxBatch(limit: Int) throws {
        let fixture = try DaemonFixture(control: { $0.maxBatch = limit })
        let client = try fixture.client()
        let _: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        let member = #"{"jsonrpc":"2.0","id":1,"method":"recordView","params":{"id":"w1"}}"#
        client.send(raw: "[" + Array(repeating: member, count: limit + 1).joined(separator: ",") + "]")
        guard case .single(.message(.errorResponse(nil, let error)))? = client.receiveLine() else {
            Issue.record("no single error for a batch over the limit")
            return
        }
        #expect(error.code == -32600)
        #expect(error.message.contains("a batch of \(limit + 1) requests is over the limit of \(limit) (control.max_batch)"))
        #expect(try views(of: "w1", client) == 0, "a member of a refused batch ran")

        client.send(raw: "[" + Array(repeating: member, count: limit).joined(separator: ",") + "]")
        #expect(try receiveBatch(client).count == limit)
        #expect(try views(of: "w1", client) == limit)
    }

    @Test("A batch is one line against control.max_line_bytes: a long one is refused whole, the next line works")
    func lineLimit() throws {
        let fixture = try DaemonFixture(control: { $0.maxLineBytes = 4096 })
        let client = try fixture.client()
        let member = #"{"jsonrpc":"2.0","id":1,"method":"status"}"#
        let fits = Array(repeating: member, count: 4096 / (member.utf8.count + 1))
        let line = "[" + fits.joined(separator: ",") + "]"
        #expect(line.utf8.count <= 4096)
        client.send(raw: line)
        #expect(try receiveBatch(client).count == fits.count)

        client.send(raw: "[" + (fits + [member]).joined(separator: ",") + "]")
        guard case .single(.message(.errorResponse(nil, let error)))? = client.receiveLine() else {
            Issue.record("no single error for a batch over the line limit")
            return
        }
        #expect(error.message == "Invalid request: line longer than 4096 bytes was discarded; send one JSON object per line")
        let _: StatusResult = try client.result("status")
    }

    @Test("subscribe inside a batch subscribes at its place: later members' events stream, the array still comes, the stream goes on")
    func subscribeInBatch() throws {
        let fixture = try DaemonFixture()
        let client = try fixture.client()
        client.send(
            raw: #"[{"jsonrpc":"2.0","id":1,"method":"status"},{"jsonrpc":"2.0","id":2,"method":"subscribe"},"#
                + #"{"jsonrpc":"2.0","id":3,"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"systemSmall"}}]"#)
        var notices: [HostNotice] = []
        var replies: [JSONRPCMessage]?
        while replies == nil, let line = client.receiveLine() {
            switch line {
            case .single(.message(.notification("event", let params?))): notices.append(try params.decode(as: HostNotice.self))
            case .batch(let members):
                replies = members.compactMap { if case .message(let message) = $0 { message } else { nil } }
            default: Issue.record("unexpected line \(line)")
            }
        }
        #expect(replies?.count == 3)
        guard let replies, replies.count == 3, case .response(.number(2), let subscribed) = replies[1],
            case .response(.number(3), _) = replies[2]
        else {
            Issue.record("replies: \(String(describing: replies))")
            return
        }
        #expect(subscribed == ["subscribed": true])
        // The addWidget member ran after subscribe: its widgetAdded came to this connection,
        // before the array or after it, and the stream continues after the batch.
        let added = notices.first { $0.type == .widgetAdded } ?? client.nextNotice { $0.type == .widgetAdded }
        #expect(added?.widgetId == "w1")
        #expect(client.nextNotice { $0.type == .entryChanged && $0.detail == "timeline" } != nil)
    }
}

struct BatchTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
