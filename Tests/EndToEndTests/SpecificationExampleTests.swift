import Foundation
import Testing
import WidgetHostProtocol

/// The examples of the JSON-RPC 2.0 specification (section 7), with widgethost's methods in
/// place of `subtract`, `sum` and `get_data`, against the widgethostd binary over its socket.
/// Replies are compared as the specification writes them; a `result` stands for any result
/// and an error for its code (the messages are checked where they matter).
@Suite("The JSON-RPC 2.0 specification's examples, against the real daemon", .serialized)
struct SpecificationExampleTests {
    /// A daemon with one widget, w1 (the docs' Python extension, PyClock), and a connection.
    private static func connect() throws -> (RealDaemon, LineSocket) {
        let daemon = try RealDaemon()
        let socket = try LineSocket(path: daemon.socket)
        let added = try socket.call("addWidget", ["kind": "PyClock", "family": "systemSmall"])
        try #require(added?.objectValue?["widget"]?.objectValue?["id"] == "w1")
        return (daemon, socket)
    }

    /// A reply as the specification compares it: results become "*", errors their code.
    private static func shape(_ reply: JSONValue?) -> JSONValue? {
        switch reply {
        case .array(let members)?: return .array(members.compactMap { shape($0) })
        case .object(var object)?:
            if object["result"] != nil { object["result"] = "*" }
            if let code = object["error"]?.objectValue?["code"] { object["error"] = ["code": code] }
            return .object(object)
        default: return reply
        }
    }

    private static func json(_ text: String) throws -> JSONValue {
        try WireCoding.decode(JSONValue.self, from: Data(text.utf8))
    }

    private static func views(_ socket: LineSocket) throws -> JSONValue? {
        let status = try socket.call("status", ["id": "w1"])
        guard case .array(let widgets)? = status?.objectValue?["widgets"] else { return nil }
        return widgets.first?.objectValue?["budget"]?.objectValue?["views"]
    }

    /// One request, one reply.
    private func exchange(_ request: String, expect reply: String) throws {
        let (daemon, socket) = try Self.connect()
        socket.send(request)
        let received = socket.receive()
        #expect(Self.shape(received) == Self.shape(try Self.json(reply)), "\(request) → \(String(describing: received))")
        withExtendedLifetime(daemon) {}
    }

    @Test("1. A call with positional parameters: -32602 with its id, the methods take their params by name")
    func positionalParameters() throws {
        let (daemon, socket) = try Self.connect()
        socket.send(#"{"jsonrpc": "2.0", "method": "recordView", "params": ["w1"], "id": 1}"#)
        let reply = socket.receive()
        #expect(Self.shape(reply) == Self.shape(try Self.json(#"{"jsonrpc":"2.0","error":{"code":-32602},"id":1}"#)))
        #expect(
            reply?.objectValue?["error"]?.objectValue?["message"]
                == "Invalid params: recordView takes its params by name, as an object (docs/openrpc.json); got an array")
        withExtendedLifetime(daemon) {}
    }

    @Test("2. A call with named parameters: the result, whatever the order of the names")
    func namedParameters() throws {
        let (daemon, socket) = try Self.connect()
        for (id, params) in [(3, #"{"kind": "PyClock", "foreground": true}"#), (4, #"{"foreground": true, "kind": "PyClock"}"#)] {
            socket.send(#"{"jsonrpc": "2.0", "method": "reloadTimelines", "params": \#(params), "id": \#(id)}"#)
            let reply = socket.receive()
            #expect(Self.shape(reply) == Self.shape(try Self.json(#"{"jsonrpc":"2.0","result":0,"id":\#(id)}"#)))
            guard case .array(let outcomes)? = reply?.objectValue?["result"]?.objectValue?["outcomes"] else {
                Issue.record("no outcomes: \(String(describing: reply))")
                continue
            }
            #expect(outcomes.map { $0.objectValue?["id"] } == ["w1"])
        }
        withExtendedLifetime(daemon) {}
    }

    @Test("3. Notifications get no reply, and are run")
    func notifications() throws {
        let (daemon, socket) = try Self.connect()
        #expect(try Self.views(socket) == 0)
        #expect(socket.answersNothing(#"{"jsonrpc": "2.0", "method": "recordView", "params": {"id": "w1"}}"#))
        #expect(socket.answersNothing(#"{"jsonrpc": "2.0", "method": "foobar"}"#))
        #expect(try Self.views(socket) == 1, "the notification was not run")
        withExtendedLifetime(daemon) {}
    }

    @Test("4. A non-existent method: -32601")
    func methodNotFound() throws {
        try exchange(
            #"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
            expect: #"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#)
    }

    @Test("5. Invalid JSON: -32700 with a null id")
    func invalidJSON() throws {
        try exchange(
            #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
            expect: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#)
    }

    @Test("6. An invalid Request object: -32600 with a null id")
    func invalidRequest() throws {
        try exchange(
            #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
            expect: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#)
    }

    @Test("7. A batch that is invalid JSON: one -32700")
    func batchInvalidJSON() throws {
        try exchange(
            #"[{"jsonrpc": "2.0", "method": "status", "params": {"id": "w1"}, "id": "1"}, {"jsonrpc": "2.0", "method"]"#,
            expect: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#)
    }

    @Test("8. An empty array: one -32600, not an array")
    func emptyBatch() throws {
        try exchange("[]", expect: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#)
    }

    @Test("9. An invalid batch, not empty: an array of one -32600")
    func invalidBatchOfOne() throws {
        try exchange("[1]", expect: #"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]"#)
    }

    @Test("10. An invalid batch: a -32600 for each member")
    func invalidBatch() throws {
        try exchange(
            "[1,2,3]",
            expect: #"""
                [{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
                 {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
                 {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]
                """#.replacingOccurrences(of: "\n", with: ""))
    }

    @Test("11. A mixed batch: results, errors, nothing for the notification; the notification runs")
    func mixedBatch() throws {
        let (daemon, socket) = try Self.connect()
        socket.send(
            #"""
            [{"jsonrpc": "2.0", "method": "status", "params": {"id": "w1"}, "id": "1"},
             {"jsonrpc": "2.0", "method": "recordView", "params": {"id": "w1"}},
             {"jsonrpc": "2.0", "method": "getCurrentConfigurations", "params": {"app": "org.example.pyclock"}, "id": "2"},
             {"foo": "boo"},
             {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
             {"jsonrpc": "2.0", "method": "extensions", "id": "9"}]
            """#.replacingOccurrences(of: "\n", with: ""))
        let reply = socket.receive()
        let expected = try Self.json(
            #"""
            [{"jsonrpc": "2.0", "result": 7, "id": "1"},
             {"jsonrpc": "2.0", "result": 19, "id": "2"},
             {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
             {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
             {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}]
            """#)
        #expect(Self.shape(reply) == Self.shape(expected), "\(String(describing: reply))")
        #expect(try Self.views(socket) == 1, "the notification in the batch was not run")
        withExtendedLifetime(daemon) {}
    }

    @Test("12. A batch of notifications only: nothing at all is returned, and each runs")
    func notificationBatch() throws {
        let (daemon, socket) = try Self.connect()
        #expect(
            socket.answersNothing(
                #"[{"jsonrpc": "2.0", "method": "recordView", "params": {"id": "w1"}}, {"jsonrpc": "2.0", "method": "recordView", "params": {"id": "w1"}}]"#))
        #expect(try Self.views(socket) == 2)
        withExtendedLifetime(daemon) {}
    }

    @Test("13. Parameters of the wrong type: -32602 naming the field")
    func wrongParameterTypes() throws {
        let (daemon, socket) = try Self.connect()
        socket.send(#"{"jsonrpc": "2.0", "method": "recordView", "params": {"id": 5}, "id": 13}"#)
        let reply = socket.receive()
        #expect(Self.shape(reply) == Self.shape(try Self.json(#"{"jsonrpc":"2.0","error":{"code":-32602},"id":13}"#)))
        guard case .string(let message)? = reply?.objectValue?["error"]?.objectValue?["message"] else {
            Issue.record("no message: \(String(describing: reply))")
            return
        }
        #expect(message.hasPrefix("Invalid params: recordView: id"), "\(message)")
        withExtendedLifetime(daemon) {}
    }

    @Test("14. \"jsonrpc\": \"1.0\": -32600, keeping the id")
    func wrongVersion() throws {
        try exchange(
            #"{"jsonrpc": "1.0", "method": "status", "id": 14}"#,
            expect: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": 14}"#)
    }
}
