import Foundation
import Testing
import W8TrackrShared
import WidgetHostProtocol
import WidgetKit

/// W8Trackr's Control widget: LogWeightControl shows the latest weigh-in and logs it again.
@Suite("W8Trackr: LogWeightControl")
struct W8TrackrControlTests {
    struct Bundle: WidgetBundle {
        let provider: LatestWeightProvider
        init() { provider = LatestWeightProvider() }
        init(provider: LatestWeightProvider) { self.provider = provider }
        var body: some Widget {
            WeightWidget()
            LogWeightControl(provider: provider)
        }
    }

    static func channel(_ temporary: TemporaryContainer?) throws -> ExampleChannel {
        let url = temporary?.url
        let provider = LatestWeightProvider(container: { url.map(W8TrackrContainer.init) }, now: { W8TrackrTests.now })
        return ExampleChannel(server: try ExtensionServer(bundle: Bundle(provider: provider)))
    }

    static func value(_ channel: ExampleChannel) async throws -> ControlValueResult {
        try await channel.call("control/value", ["kind": "LogWeightControl", "now": "2026-02-15T08:00:00Z"])
            .decode(as: ControlValueResult.self)
    }

    @Test("initialize declares the control beside WeightWidget: a button whose action is LogWeightIntent")
    func declared() async throws {
        let result = try await Self.channel(nil).call("initialize", [:]).decode(as: InitializeResult.self)
        #expect(result.widgets.map(\.kind) == ["WeightWidget"])
        let control = try #require(result.controls?.first)
        #expect(control.kind == "LogWeightControl" && control.style == .button && control.displayName == "Log Weight")
        #expect(control.action?.title == "Log Weight")
        #expect(control.action?.parameters == [:])
    }

    @Test("The value is the latest weigh-in in the preferred unit; today's shows a checkmark")
    func latestWeight() async throws {
        let yesterday = try W8TrackrTests.container([(-2, 82.0), (-1, 81.6)])
        defer { yesterday.remove() }
        let value = try await Self.value(try Self.channel(yesterday))
        #expect(value.title == "81.6 kg")
        #expect(value.systemImage == "scalemass")
        #expect(value.value == ["weight": 81.6, "unit": "kg", "loggedToday": false])

        let pounds = try W8TrackrTests.container([(-0.1, 81.4)], unit: .lb)
        defer { pounds.remove() }
        let today = try await Self.value(try Self.channel(pounds))
        #expect(today.title == "179.5 lb")
        #expect(today.systemImage == "checkmark.circle")
    }

    @Test("Before the first weigh-in the control invites one")
    func empty() async throws {
        let none = try W8TrackrTests.container([])
        defer { none.remove() }
        #expect(try await Self.value(try Self.channel(none)).title == "Log Weight")
    }

    @Test("Unreadable data or no App Group: the provider throws and the reply says why")
    func unreadable() async throws {
        let broken = try W8TrackrTests.container([(-1, 81.6)])
        defer { broken.remove() }
        try Data("not json".utf8).write(to: broken.url.appendingPathComponent(W8TrackrContainer.weighInsFile))
        let value = try await Self.value(try Self.channel(broken))
        #expect(value.title == nil)
        #expect(value.error?.hasPrefix("currentValue() threw: ") == true)
        #expect(value.error?.contains("weighins.json is not valid W8Trackr data") == true, "\(value.error ?? "")")
        let missing = try await Self.value(try Self.channel(nil))
        #expect(missing.error?.contains("no container for the App Group group.com.w8trackr") == true)
    }

    @Test("The action logs the latest weigh-in again, dated now; with none it refuses")
    func logLatest() throws {
        let temporary = try W8TrackrTests.container([(-2, 82.0), (-1, 81.6)])
        defer { temporary.remove() }
        let container = W8TrackrContainer(url: temporary.url)
        let logged = try LogWeightIntent.logLatest(in: container, at: W8TrackrTests.now)
        #expect(logged == WeighIn(date: W8TrackrTests.now, weight: 81.6, unit: .kg))
        #expect(try container.weighIns().count == 3)
        let none = try W8TrackrTests.container([])
        defer { none.remove() }
        #expect(throws: LogWeightError.self) { try LogWeightIntent.logLatest(in: W8TrackrContainer(url: none.url), at: W8TrackrTests.now) }
    }
}
