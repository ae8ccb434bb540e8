import Foundation
import SeededRandom
import Testing
import WidgetHostCore
import WidgetHostDriver
import WidgetHostProtocol
@testable import WidgetHostDaemon

/// `PlainStatusRequest`: the lines answered without reading them as JSON are exactly the
/// ones the normal reader takes for a `status` request with no params or `{}` and the same
/// numeric id, and everything that merely looks like one goes the normal way.
@Suite("status: a plain request's bytes recognised")
struct PlainStatusRequestTests {
    static func shapes(_ id: String) -> [String] {
        [
            #"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":\#(id),"method":"status","params":{}}"#,
            #"{"id":\#(id),"jsonrpc":"2.0","method":"status"}"#,
            #"{"id":\#(id),"jsonrpc":"2.0","method":"status","params":{}}"#,
        ]
    }

    /// What the normal way makes of `line`: the id of a `status` request without params (or
    /// with `{}`), or nil for anything else.
    static func normalStatusID(_ line: [UInt8]) -> Int? {
        guard case .single(.message(.request(.number(let id), "status", let params))) = JSONRPCLine.parse(line),
            params == nil || params == .object([:])
        else { return nil }
        return id
    }

    static let ids = [0, 1, 7, 42, 1_000, 123_456_789, 999_999_999_999_999_999]

    @Test("The four shapes, with ids from 0 to 18 digits, give their id, as the normal way reads them", arguments: ids)
    func shapesAccepted(id: Int) {
        for line in Self.shapes(String(id)) {
            let bytes = Array(line.utf8)
            #expect(PlainStatusRequest.id(of: bytes) == id, "\(line)")
            #expect(Self.normalStatusID(bytes) == id, "\(line)")
        }
    }

    /// Lines that look like a plain `status` request; each goes the normal way.
    static let lookalikes: [String] =
        [
            #"{"jsonrpc":"2.0","id":1,"method":"status" }"#,
            #"{ "jsonrpc":"2.0","id":1,"method":"status"}"#,
            #"{"jsonrpc": "2.0","id":1,"method":"status"}"#,
            #"{"jsonrpc":"2.0", "id":1,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":{ }}"#,
            #"{"method":"status","jsonrpc":"2.0","id":1}"#,
            #"{"jsonrpc":"2.0","method":"status","id":1}"#,
            #"{"id":1,"method":"status","jsonrpc":"2.0"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":{"id":"w1"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":{"x":1}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":[]}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":null}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":{}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status"},"#,
            #"[{"jsonrpc":"2.0","id":1,"method":"status"}]"#,
            #"{"jsonrpc":"2.0","id":1,"method":"statuses"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"Status"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"extensions"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status\u0020"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"st\u0061tus"}"#,
            #"{"jsonrpc":"2.1","id":1,"method":"status"}"#,
            #"{"jsonrpc":2.0,"id":1,"method":"status"}"#,
            #"{"jsonrpc":"2.0","method":"status"}"#,
            #"{"jsonrpc":"2.0","id":,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":"1","method":"status"}"#,
            #"{"jsonrpc":"2.0","id":-1,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":01,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":00,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":1.0,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":1e3,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":1000000000000000000,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":99999999999999999999,"method":"status"}"#,
            #"{"jsonrpc":"2.0","id":1,"id":2,"method":"status"}"#,
            #"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"status"}"#,
            #"{"id":1,"jsonrpc":"2.0","method":"status","params":{},"params":{}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status","extra":1}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"status"}x"#,
            #" {"jsonrpc":"2.0","id":1,"method":"status"}"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}\t",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}\r",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}\u{0}",
            #"{"jsonrpc":"2.0","id":1,"method":"status","params":{}}}"#,
            #"{"id":1,"jsonrpc":"2.0","method":"status","params":{} }"#,
            #"{"id":1 ,"jsonrpc":"2.0","method":"status"}"#,
            "", "{", "}", "{}", "null",
        ]

    @Test("Lookalikes go the normal way: spaces, other key orders, params other than {}, other ids, methods and versions")
    func lookalikesRefused() {
        for line in Self.lookalikes {
            #expect(PlainStatusRequest.id(of: Array(line.utf8)) == nil, "\(line)")
        }
    }

    /// Random edits of the four shapes (a byte deleted, replaced or inserted, up to three
    /// times): whenever one is still recognised, the normal way reads the same request.
    @Test("Mutated shapes: whatever is recognised is the request the normal way reads", arguments: [UInt64(1), 2, 3, 4])
    func mutations(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let alphabet = Array(#"{}[]":,0123456789 -.eE"\sxtaumdjpnr"#.utf8)
        var recognised = 0
        for round in 0..<5_000 {
            let id = Self.ids[Int.random(in: 0..<Self.ids.count, using: &random)]
            let shapes = Self.shapes(String(id))
            let line = randomlyEdited(Array(shapes[round % shapes.count].utf8), alphabet: alphabet, using: &random)
            guard let fast = PlainStatusRequest.id(of: line) else { continue }
            recognised += 1
            #expect(Self.normalStatusID(line) == fast, "\(String(decoding: line, as: UTF8.self))")
        }
        // Some edits keep a shape (another id, `params` dropped): the check is not vacuous.
        #expect(recognised > 0)
    }
}

/// The fast path on the real daemon: its reply is byte for byte the normal path's, in every
/// state, and the cache behind both is invalidated as before.
@Suite("status: the fast path on the real daemon", .tags(.process), .serialized)
struct StatusFastPathTests {
    /// A clock that does not move, so two answers in the same state are the same bytes.
    struct FixedClock: HostClock {
        let now = Date(timeIntervalSince1970: 1_771_142_400)
    }

    /// The reply's bytes to `line`.
    static func reply(_ client: TestClient, _ line: String) throws -> [UInt8] {
        client.send(raw: line)
        return try #require(client.receiveRaw(), "no reply to \(line)")
    }

    /// Normal-path spellings of the same request (spaces, another key order, `params` with a space).
    static func normal(_ id: Int) -> [String] {
        [
            #"{"jsonrpc": "2.0", "id": \#(id), "method": "status"}"#,
            #"{"method":"status","params":{ },"id":\#(id),"jsonrpc":"2.0"}"#,
        ]
    }

    /// Every fast shape and every normal spelling, for many ids, answers the same bytes.
    static func expectSameReplies(_ client: TestClient, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for id in PlainStatusRequestTests.ids + [2, 3, 10, 99, 65_536] {
            let expected = try reply(client, normal(id)[0])
            #expect(String(decoding: expected, as: UTF8.self).hasPrefix(#"{"id":\#(id),"jsonrpc":"2.0","result":{"#), sourceLocation: sourceLocation)
            for line in PlainStatusRequestTests.shapes(String(id)) + normal(id).dropFirst() {
                let got = try reply(client, line)
                #expect(String(decoding: got, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(line)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("Byte for byte the normal path's reply: no widget, one added and current, viewed, removed")
    func sameBytes() throws {
        let fixture = try DaemonFixture(clock: FixedClock())
        let client = try fixture.client()
        try Self.expectSameReplies(client)

        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        let id = added.widget.id
        #expect(
            try waitUntil {
                let status: StatusResult = try client.result("status", ["id": .string(id)])
                return status.widgets.first?.currentEntry.source == .timeline && status.widgets.first?.reloadRunning == false
            })
        try Self.expectSameReplies(client)

        let _: BudgetStatus = try client.result("recordView", ["id": .string(id)])
        try Self.expectSameReplies(client)

        let _: WidgetInfo = try client.result("removeWidget", ["id": .string(id)])
        try Self.expectSameReplies(client)
    }

    @Test("Pipelined in one read, a plain status sees the step run by the line before it (the cache is invalidated as before)")
    func seesEarlierSteps() throws {
        let fixture = try DaemonFixture(clock: FixedClock())
        let client = try fixture.client()
        let before = try Self.reply(client, PlainStatusRequestTests.shapes("1")[0])
        client.send(
            raw: #"{"jsonrpc":"2.0","id":2,"method":"addWidget","params":{"kind":"WellBehavedWidget","family":"systemSmall"}}"#
                + "\n" + PlainStatusRequestTests.shapes("3")[0] + "\n" + Self.normal(4)[0])
        let replies = try (0..<3).map { _ in try #require(client.receiveRaw()) }
        guard case .single(.message(.response(.number(3), let fast))) = JSONRPCLine.parse(replies[1]),
            case .single(.message(.response(.number(4), let normal))) = JSONRPCLine.parse(replies[2]),
            case .single(.message(.response(.number(1), let empty))) = JSONRPCLine.parse(before)
        else {
            Issue.record("unexpected replies: \(replies.map { String(decoding: $0, as: UTF8.self) })")
            return
        }
        #expect(try empty.decode(as: StatusResult.self).widgets.isEmpty)
        #expect(try fast.decode(as: StatusResult.self).widgets.map(\.widget.id) == ["w1"])
        #expect(try normal.decode(as: StatusResult.self).widgets.map(\.widget.id) == ["w1"])
    }

    @Test("A string id, a widget's id in params, a notification: the normal way, answered as before")
    func otherShapes() throws {
        let fixture = try DaemonFixture(clock: FixedClock())
        let client = try fixture.client()
        let byString = try Self.reply(client, #"{"jsonrpc":"2.0","id":"a/b","method":"status"}"#)
        #expect(String(decoding: byString, as: UTF8.self).hasPrefix(#"{"id":"a/b","jsonrpc":"2.0","result":{"#))
        // A notification gets no reply: the next line is the sentinel's.
        client.send(raw: #"{"jsonrpc":"2.0","method":"status"}"#)
        let sentinel = try Self.reply(client, PlainStatusRequestTests.shapes("5")[3])
        #expect(String(decoding: sentinel, as: UTF8.self).hasPrefix(#"{"id":5,"#))
        let unknown = try Self.reply(client, #"{"jsonrpc":"2.0","id":6,"method":"status","params":{"id":"w9"}}"#)
        guard case .single(.message(.errorResponse(.number(6)?, let error))) = JSONRPCLine.parse(unknown) else {
            Issue.record("expected an error: \(String(decoding: unknown, as: UTF8.self))")
            return
        }
        #expect(error.code == JSONRPCError.requestRefusedCode)
    }
}
