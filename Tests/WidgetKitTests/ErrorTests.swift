import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("Bad requests get the exact JSON-RPC error and the channel stays usable")
struct ErrorTests {
    /// After every error the same server must still answer a good request.
    private func expectStillServing(_ channel: Channel) async throws {
        let entry = try await channel.result(
            "placeholder/get", ["kind": "BirthdayHomeWidget", "family": "systemSmall"], as: TimelineEntryPayload.self)
        #expect(entry.content == ["names": ["Ada"]])
    }

    @Test("An unknown kind is -32602 naming the kind and the kinds on offer")
    func unknownKind() async throws {
        let channel = try birthdayChannel()
        let error = try await channel.error("timeline/get", ["kind": "WeightWidget", "family": "systemSmall", "widgetId": "w", "now": "2026-02-15T00:00:00Z"])
        #expect(error.code == -32602)
        #expect(
            error.message
                == #"Invalid params: unknown widget kind "WeightWidget"; this extension offers "BirthdayHomeWidget", "BirthdayLockScreenWidget""#
        )
        try await expectStillServing(channel)
    }

    @Test("A family the widget does not support is -32602 naming the supported ones")
    func unsupportedFamily() async throws {
        let channel = try birthdayChannel()
        let error = try await channel.error("snapshot/get", ["kind": "BirthdayHomeWidget", "family": "accessoryInline", "isPreview": false])
        #expect(error.code == -32602)
        #expect(
            error.message
                == "Invalid params: BirthdayHomeWidget does not support accessoryInline; its supported families are "
                + "systemSmall, systemMedium, systemLarge (add it to .supportedFamilies(_:) to offer it)")
        try await expectStillServing(channel)
    }

    @Test("A family name that does not exist is -32602 listing the known families")
    func unknownFamily() async throws {
        let channel = try birthdayChannel()
        let error = try await channel.error("placeholder/get", ["kind": "BirthdayHomeWidget", "family": "huge"])
        #expect(error.code == -32602)
        #expect(error.message.hasPrefix(#"Invalid params: unknown widget family "huge"; known families are systemSmall, "#))
        try await expectStillServing(channel)
    }

    @Test("Missing or mistyped params are -32602 naming the field", arguments: [
        ("placeholder/get", nil, #"Invalid params: placeholder/get needs params {kind, family}"#),
        ("placeholder/get", ["BirthdayHomeWidget"], #"Invalid params: placeholder/get needs params {kind, family}"#),
        ("placeholder/get", ["family": "systemSmall"], #"Invalid params: placeholder/get needs "kind" in its params {kind, family}"#),
        ("timeline/get", ["kind": "BirthdayHomeWidget"], #"Invalid params: timeline/get needs "family" in its params {kind, family, widgetId, now, configuration?}"#),
        ("placeholder/get", ["kind": 3, "family": "systemSmall"], #"Invalid params: "kind" must be a string"#),
        ("snapshot/get", ["kind": "BirthdayHomeWidget", "family": "systemSmall", "isPreview": "yes"], #"Invalid params: "isPreview" must be true or false"#),
        ("timeline/get", ["kind": "BirthdayHomeWidget", "family": "systemSmall", "widgetId": 4], #"Invalid params: "widgetId" must be a string"#),
        ("timeline/get", ["kind": "BirthdayHomeWidget", "family": "systemSmall", "now": "tomorrow"], #"Invalid params: "now" must be an RFC 3339 date such as "2026-02-15T08:00:00Z""#),
    ] as [(String, JSONValue?, String)])
    func badParams(method: String, params: JSONValue?, message: String) async throws {
        let channel = try birthdayChannel()
        let error = try await channel.error(method, params)
        #expect(error.code == -32602)
        #expect(error.message == message)
        try await expectStillServing(channel)
    }

    @Test("Unknown fields in params are ignored")
    func unknownFieldsIgnored() async throws {
        let entry = try await birthdayChannel().result(
            "placeholder/get", ["kind": "BirthdayHomeWidget", "family": "systemSmall", "colour": "blue"],
            as: TimelineEntryPayload.self)
        #expect(entry.content == ["names": ["Ada"]])
    }

    @Test("An unknown method is -32601 listing the methods an extension serves")
    func unknownMethod() async throws {
        let channel = try birthdayChannel()
        let error = try await channel.error("timeline/reload", ["kind": "BirthdayHomeWidget"])
        #expect(error.code == -32601)
        #expect(
            error.message
                == #"Method not found: "timeline/reload"; known methods are initialize, placeholder/get, snapshot/get, timeline/get, intent/perform, intent/options, control/value, activity/render"#
        )
        try await expectStillServing(channel)
    }

    @Test("Invalid JSON is -32700 with a null id")
    func invalidJSON() async throws {
        let channel = try birthdayChannel()
        let reply = try await channel.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize""#)
        guard case .errorResponse(let id, let error)? = reply else {
            Issue.record("expected an error response, got \(String(describing: reply))")
            return
        }
        #expect(id == nil)
        #expect(error.code == -32700)
        #expect(error.message == "Parse error: the line is not valid JSON")
        try await expectStillServing(channel)
    }

    @Test("The null id of a parse error is written as null on the wire")
    func nullIDOnTheWire() async throws {
        let server = try ExtensionServer(bundle: BirthdayRemindersWidgetBundle())
        let reply = try #require(await server.handle(line: Array("not json".utf8)))
        let object = try WireCoding.decode(JSONValue.self, from: Data(reply))
        #expect(object["id"] == .null)
        #expect(object["error"]?["code"] == -32700)
    }

    @Test("An invalid request (a batch, a wrong jsonrpc) is -32600 and keeps its id where it has one")
    func invalidRequest() async throws {
        let channel = try birthdayChannel()
        guard case .errorResponse(nil, let batch)? = try await channel.send(#"[{"jsonrpc":"2.0","id":1,"method":"initialize"}]"#)
        else {
            Issue.record("expected an error response for a batch")
            return
        }
        #expect(batch.code == -32600)
        guard case .errorResponse(.number(5), let version)? = try await channel.send(#"{"jsonrpc":"1.0","id":5,"method":"initialize"}"#)
        else {
            Issue.record("expected an error response for jsonrpc 1.0")
            return
        }
        #expect(version.code == -32600)
        try await expectStillServing(channel)
    }

    @Test("A line over 1 MiB is -32600 with a null id, and the next line is served")
    func oversizedLine() async throws {
        let server = try ExtensionServer(bundle: BirthdayRemindersWidgetBundle())
        var framer = LineFramer(maxLineBytes: ExtensionServer.maxLineBytes)
        let huge = Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: ExtensionServer.maxLineBytes) + Array(#""}}"#.utf8) + [10]
        let next = Array(#"{"jsonrpc":"2.0","id":2,"method":"initialize"}"#.utf8) + [10]
        let frames = framer.append(huge + next)
        #expect(frames.count == 2)
        let replies = frames.map { server.handle(frame: $0) }
        guard case .message(.errorResponse(nil, let error)) = JSONRPCMessage.parse(try #require(replies[0]).dropLast()) else {
            Issue.record("expected an error response for the oversized line")
            return
        }
        #expect(error.code == -32600)
        #expect(error.message.contains("longer than 1048576 bytes"))
        guard case .message(.response(.number(2), _)) = JSONRPCMessage.parse(try #require(replies[1]).dropLast()) else {
            Issue.record("expected the next line to be answered")
            return
        }
    }

    @Test("Content JSON cannot hold is -32603 naming the widget and the fix")
    func unencodableContent() async throws {
        let channel = Channel(try ExtensionServer(widget: NaNWidget()))
        let error = try await channel.error("placeholder/get", ["kind": "NaN", "family": "systemSmall"])
        #expect(error.code == -32603)
        #expect(error.message.contains("the content for NaN's entry at"))
        #expect(error.message.contains("StaticConfiguration content closure"))
    }
}

@Suite("A bundle that cannot be served is refused at launch with the reason")
struct ConfigurationErrorTests {
    struct Twice: WidgetBundle {
        var body: some Widget {
            BirthdayHomeWidget()
            BirthdayHomeWidget()
        }
    }

    struct NoFamilies: Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: "Nowhere", provider: BirthdayTimelineProvider()) { $0.names }
                .supportedFamilies([])
        }
    }

    struct Empty: WidgetBundle {
        var includeLockScreen = false
        var body: some Widget {
            if includeLockScreen {
                BirthdayLockScreenWidget()
            }
        }
    }

    @Test("Two widgets with one kind")
    func duplicateKind() {
        #expect {
            try ExtensionServer(bundle: Twice())
        } throws: { error in
            "\(error)" == #"the kind "BirthdayHomeWidget" is declared twice; every widget in a WidgetBundle needs its own kind"#
        }
    }

    @Test("A widget that supports no family")
    func noFamilies() {
        #expect {
            try ExtensionServer(widget: NoFamilies())
        } throws: { error in
            "\(error)" == "Nowhere supports no families; pass at least one to .supportedFamilies(_:)"
        }
    }

    @Test("A bundle with no widgets")
    func emptyBundle() {
        #expect(throws: ExtensionServer.ConfigurationError.self) { try ExtensionServer(bundle: Empty()) }
    }
}
