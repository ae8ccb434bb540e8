import Foundation
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("The extension channel served by the SDK")
struct ExtensionServerTests {
    @Test("initialize lists every widget of the bundle, in order, as the gallery would show it")
    func initialize() async throws {
        let result = try await birthdayChannel().result("initialize", ["protocolVersion": 1], as: InitializeResult.self)
        #expect(
            result.widgets == [
                WidgetDescriptor(
                    kind: "BirthdayHomeWidget", displayName: "Upcoming Birthdays",
                    description: "See upcoming birthdays at a glance.",
                    supportedFamilies: [.systemSmall, .systemMedium, .systemLarge]),
                WidgetDescriptor(
                    kind: "BirthdayLockScreenWidget", displayName: "Next Birthday",
                    description: "See the next upcoming birthday.",
                    supportedFamilies: [.accessoryCircular, .accessoryRectangular, .accessoryInline]),
            ])
    }

    @Test("initialize needs no params")
    func initializeWithoutParams() async throws {
        let result = try await birthdayChannel().result("initialize", as: InitializeResult.self)
        #expect(result.widgets.count == 2)
    }

    @Test("A widget without modifiers gets Apple's defaults: the three home-screen sizes")
    func defaults() async throws {
        let channel = Channel(try ExtensionServer(widget: PlainWidget()))
        let result = try await channel.result("initialize", as: InitializeResult.self)
        #expect(
            result.widgets == [
                WidgetDescriptor(
                    kind: "Plain", displayName: "Plain", description: "",
                    supportedFamilies: [.systemSmall, .systemMedium, .systemLarge])
            ])
    }

    @Test("placeholder/get returns the provider's placeholder with its content")
    func placeholder() async throws {
        let entry = try await birthdayChannel().result(
            "placeholder/get", ["kind": "BirthdayHomeWidget", "family": "systemSmall"], as: TimelineEntryPayload.self)
        #expect(entry.content == ["names": ["Ada"]])
        #expect(entry.relevance == nil)
        #expect(abs(entry.date.timeIntervalSinceNow) < 60)
    }

    @Test("snapshot/get returns an entry whose content comes from that widget's content closure")
    func snapshot() async throws {
        let entry = try await birthdayChannel().result(
            "snapshot/get", ["kind": "BirthdayLockScreenWidget", "family": "accessoryInline", "isPreview": true],
            as: TimelineEntryPayload.self)
        #expect(entry.content == ["name": "Ada"])
    }

    @Test("timeline/get returns the entries and the .after(midnight) policy")
    func timeline() async throws {
        let before = Calendar.current.startOfDay(for: Date()).addingTimeInterval(86_400)
        let timeline = try await birthdayChannel().result(
            "timeline/get",
            ["kind": "BirthdayHomeWidget", "family": "systemMedium", "widgetId": "w1", "now": "2026-02-15T08:00:00Z"],
            as: TimelinePayload.self)
        let after = Calendar.current.startOfDay(for: Date()).addingTimeInterval(86_400)
        #expect(timeline.entries.count == 1)
        #expect(timeline.entries.first?.content == ["names": []])
        guard case .after(let due) = timeline.policy else {
            Issue.record("expected .after(midnight), got \(timeline.policy)")
            return
        }
        #expect(due == before || due == after)
    }

    @Test("The provider is told the family, whether it is a preview, and the display size")
    func context() async throws {
        let channel = Channel(try ExtensionServer(widget: EchoWidget<AsyncOnlyProvider>()))
        for family in WidgetFamily.allCases {
            for isPreview in [true, false] {
                let entry = try await channel.result(
                    "snapshot/get",
                    ["kind": "AsyncOnlyProvider", "family": .string(family.rawValue), "isPreview": .bool(isPreview)],
                    as: TimelineEntryPayload.self)
                #expect(
                    entry.content == [
                        "family": .string(family.rawValue), "isPreview": .bool(isPreview),
                        "width": .integer(Int(family.displaySize.width)),
                        "height": .integer(Int(family.displaySize.height)),
                    ])
            }
        }
    }

    @Test("snapshot/get without isPreview is not a preview")
    func snapshotDefaultsToNotPreview() async throws {
        let channel = Channel(try ExtensionServer(widget: EchoWidget<AsyncOnlyProvider>()))
        let entry = try await channel.result(
            "snapshot/get", ["kind": "AsyncOnlyProvider", "family": "systemSmall"], as: TimelineEntryPayload.self)
        #expect(entry.content["isPreview"] == false)
    }

    @Test("A provider written only with async works, relevance included")
    func asyncOnlyProvider() async throws {
        let channel = Channel(try ExtensionServer(widget: EchoWidget<AsyncOnlyProvider>()))
        let timeline = try await channel.result(
            "timeline/get",
            ["kind": "AsyncOnlyProvider", "family": "systemLarge", "widgetId": "w1", "now": "2026-02-15T00:00:00Z"],
            as: TimelinePayload.self)
        #expect(timeline.policy == .atEnd)
        #expect(timeline.entries.map(\.date) == [0, 1, 2].map { referenceDate.addingTimeInterval($0 * 3600) })
        #expect(timeline.entries.first?.relevance == EntryRelevance(score: 10, duration: 1800))
        // A zero duration means "until the next entry" and is left off the wire.
        #expect(timeline.entries.last?.relevance == EntryRelevance(score: 1, duration: nil))
        let snapshot = try await channel.result(
            "snapshot/get", ["kind": "AsyncOnlyProvider", "family": "systemSmall", "isPreview": false],
            as: TimelineEntryPayload.self)
        #expect(snapshot.date == referenceDate)
    }

    @Test("A provider that finishes on the main queue or the main actor still answers")
    func mainThreadProvider() async throws {
        let channel = Channel(try ExtensionServer(widget: EchoWidget<MainThreadProvider>()))
        let snapshot = try await channel.result(
            "snapshot/get", ["kind": "MainThreadProvider", "family": "systemSmall", "isPreview": true],
            as: TimelineEntryPayload.self)
        #expect(snapshot.content["isPreview"] == true)
        let timeline = try await channel.result(
            "timeline/get", ["kind": "MainThreadProvider", "family": "systemSmall", "widgetId": "w", "now": "2026-02-15T00:00:00Z"],
            as: TimelinePayload.self)
        #expect(timeline.policy == .never)
    }

    @Test("The blocking line handler used by the stdin loop answers an async provider from a plain thread")
    func blockingHandler() async throws {
        let server = try ExtensionServer(widget: EchoWidget<AsyncOnlyProvider>())
        let line = #"{"jsonrpc":"2.0","id":1,"method":"timeline/get","params":{"kind":"AsyncOnlyProvider","family":"systemSmall","widgetId":"w","now":"2026-02-15T00:00:00Z"}}"#
        let reply: [UInt8]? = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: server.handle(line: Array(line.utf8))) }.start()
        }
        let bytes = try #require(reply)
        guard case .message(.response(.number(1), let result)) = JSONRPCMessage.parse(bytes.dropLast()) else {
            Issue.record("expected a response, got \(String(decoding: bytes, as: UTF8.self))")
            return
        }
        #expect(try result.decode(as: TimelinePayload.self).entries.count == 3)
    }

    @Test("A completion handler called twice answers the request once, with the first value")
    func completionCalledTwice() async throws {
        let channel = Channel(try ExtensionServer(widget: EchoWidget<TwiceProvider>()))
        let snapshot = try await channel.result(
            "snapshot/get", ["kind": "TwiceProvider", "family": "systemSmall", "isPreview": false],
            as: TimelineEntryPayload.self)
        #expect(snapshot.date == referenceDate)
        let timeline = try await channel.result(
            "timeline/get", ["kind": "TwiceProvider", "family": "systemSmall", "widgetId": "w", "now": "2026-02-15T00:00:00Z"],
            as: TimelinePayload.self)
        #expect(timeline.entries.count == 1)
        #expect(timeline.policy == .never)
    }

    @Test("A string id is echoed")
    func stringID() async throws {
        let result = try await birthdayChannel().call("initialize", id: .string("init-1"))
        #expect(try result.get()["widgets"] != nil)
    }

    @Test("Notifications and responses from the host get no reply")
    func noReply() async throws {
        let channel = try birthdayChannel()
        #expect(try await channel.send(#"{"jsonrpc":"2.0","method":"initialize"}"#) == nil)
        #expect(try await channel.send(#"{"jsonrpc":"2.0","method":"no/such/method"}"#) == nil)
        #expect(try await channel.send(#"{"jsonrpc":"2.0","id":3,"result":{}}"#) == nil)
        #expect(try await channel.send(#"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"x"}}"#) == nil)
    }

    @Test("The server reports the policy of each kind on the wire", arguments: [
        (TimelineReloadPolicy.atEnd, TimelinePolicy.atEnd),
        (.never, .never),
        (.after(referenceDate), .after(referenceDate)),
    ])
    func policies(policy: TimelineReloadPolicy, wire: TimelinePolicy) async throws {
        let channel = Channel(try ExtensionServer(widget: FixedPolicyWidget(policy: policy)))
        let timeline = try await channel.result(
            "timeline/get", ["kind": "FixedPolicy", "family": "systemSmall", "widgetId": "w", "now": "2026-02-15T00:00:00Z"],
            as: TimelinePayload.self)
        #expect(timeline.policy == wire)
    }
}

struct FixedPolicyProvider: TimelineProvider {
    let policy: TimelineReloadPolicy
    func placeholder(in context: Context) -> BirthdayTimelineEntry { BirthdayTimelineEntry(date: referenceDate, names: []) }
    func timeline(in context: Context) async -> Timeline<BirthdayTimelineEntry> {
        Timeline(entries: [placeholder(in: context)], policy: policy)
    }
    func snapshot(in context: Context) async -> BirthdayTimelineEntry { placeholder(in: context) }
}

struct FixedPolicyWidget: Widget {
    var policy: TimelineReloadPolicy = .never
    init() {}
    init(policy: TimelineReloadPolicy) { self.policy = policy }
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "FixedPolicy", provider: FixedPolicyProvider(policy: policy)) { $0.names }
    }
}
