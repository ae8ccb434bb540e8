import Foundation
import Testing
import W8TrackrShared
import WidgetHostProtocol
import WidgetKit

@Suite("W8Trackr: WeightWidget and the w8trackr app")
struct W8TrackrTests {
    static let now = Calendar.current.date(from: DateComponents(year: 2026, month: 2, day: 15, hour: 8))!

    static func day(_ offset: Double) -> Date { now.addingTimeInterval(offset * 86_400) }

    /// A container holding `weighIns` (kg) and the preferences.
    static func container(_ weighIns: [(Double, Double)], unit: WeightUnit = .kg, goal: Double? = 75) throws
        -> TemporaryContainer
    {
        let temporary = try TemporaryContainer()
        let container = W8TrackrContainer(url: temporary.url)
        try container.updatePreferences { $0 = WeightPreferences(preferredWeightUnit: unit, goalWeight: goal) }
        try container.updateWeighIns { list in
            list = weighIns.map { WeighIn(date: day($0.0), weight: $0.1, unit: .kg) }
        }
        return temporary
    }

    static func provider(_ temporary: TemporaryContainer?) -> WeightWidgetProvider {
        let url = temporary?.url
        return WeightWidgetProvider(container: { url.map(W8TrackrContainer.init) }, now: { now })
    }

    static let week: [(Double, Double)] = [(-6, 82.6), (-5, 82.3), (-3, 81.9), (-1, 81.6), (-0.1, 81.4)]

    @Test(
        "Every family: weight and trend; medium and large add the goal; large adds the last 7 days",
        arguments: ["systemSmall", "systemMedium", "systemLarge"])
    func families(familyName: String) async throws {
        let family = try #require(WidgetFamily(rawValue: familyName))
        let temporary = try Self.container([(-9, 84.0)] + Self.week)
        defer { temporary.remove() }
        let timeline = await Self.provider(temporary).timeline(in: TimelineProviderContext(family: family))
        let entry = try #require(timeline.entries.first)
        #expect(timeline.entries.count == 1)
        #expect(entry.currentWeight == 81.4 && entry.weightUnit == .kg && entry.trend == .down)
        let view = WeightSummary(entry: entry)
        #expect(view.emptyState == nil && view.weight == 81.4 && view.trend == .down)
        #expect(view.goal == (family == .systemSmall ? nil : 75))
        #expect(view.toGo == (family == .systemSmall ? nil : 6.4))
        // The point from nine days ago is outside the window.
        #expect(view.points?.map(\.weight) == (family == .systemLarge ? [82.6, 82.3, 81.9, 81.6, 81.4] : nil))
    }

    @Test("The timeline reloads after four hours")
    func policy() async throws {
        let timeline = await Self.provider(nil).timeline(in: TimelineProviderContext(family: .systemSmall))
        #expect(timeline.policy == .after(Self.now.addingTimeInterval(4 * 3600)))
    }

    @Test(
        "Trend over 7 days: a change under 0.5 is neutral, 0.5 or more is up or down",
        arguments: [(81, 81.4, .neutral), (81, 80.6, .neutral), (81, 81.5, .up), (81, 80.5, .down), (81, 83, .up)]
            as [(Double, Double, WeightTrend)])
    func trend(oldest: Double, newest: Double, expected: WeightTrend) {
        let weighIns = [
            WeighIn(date: Self.day(-20), weight: 90, unit: .kg),  // outside the window: ignored
            WeighIn(date: Self.day(-6), weight: oldest, unit: .kg),
            WeighIn(date: Self.day(-3), weight: 99, unit: .kg),  // in between: only the ends count
            WeighIn(date: Self.day(0), weight: newest, unit: .kg),
        ]
        #expect(WeightTrend.over(weighIns, unit: .kg, now: Self.now) == expected)
    }

    @Test("The threshold is in the preferred unit: 0.3 kg is 0.66 lb, so up in lb and neutral in kg")
    func trendUnit() {
        let weighIns = [WeighIn(date: Self.day(-2), weight: 80, unit: .kg), WeighIn(date: Self.day(0), weight: 80.3, unit: .kg)]
        #expect(WeightTrend.over(weighIns, unit: .kg, now: Self.now) == .neutral)
        #expect(WeightTrend.over(weighIns, unit: .lb, now: Self.now) == .up)
    }

    @Test("One weigh-in in the window gives no trend")
    func trendUnknown() {
        #expect(WeightTrend.over([WeighIn(date: Self.day(-1), weight: 80, unit: .kg)], unit: .kg, now: Self.now) == .unknown)
    }

    @Test("Weights and goal are shown in the preferred unit")
    func pounds() async throws {
        let temporary = try Self.container([(-1, 80), (0, 80)], unit: .lb, goal: 170)
        defer { temporary.remove() }
        let entry = await Self.provider(temporary).snapshot(in: TimelineProviderContext(family: .systemMedium))
        #expect(entry.currentWeight == 176.4 && entry.weightUnit == .lb && entry.goalWeight == 170)
    }

    @Test(
        "Empty state, in every family: no container, an empty one, or unreadable data",
        arguments: ["systemSmall", "systemMedium", "systemLarge"])
    func emptyState(familyName: String) async throws {
        let family = try #require(WidgetFamily(rawValue: familyName))
        let empty = try TemporaryContainer()
        let garbage = try TemporaryContainer()
        defer { empty.remove(); garbage.remove() }
        try Data("{not json".utf8).write(to: garbage.url.appendingPathComponent(W8TrackrContainer.weighInsFile))
        for temporary in [nil, empty, garbage] {
            let timeline = await Self.provider(temporary).timeline(in: TimelineProviderContext(family: family))
            let view = WeightSummary(entry: try #require(timeline.entries.first))
            #expect(view.emptyState == "Add your first weigh-in" && view.weight == nil && view.widgetURL == "w8trackr://addWeight")
        }
    }

    @Test("The placeholder is sample data and reads nothing from the App Group")
    func placeholder() {
        let provider = WeightWidgetProvider(container: { Issue.record("the placeholder read the App Group"); return nil })
        #expect(provider.placeholder(in: TimelineProviderContext(family: .systemLarge)).recentEntries.count == 7)
    }

    @Test("Over the extension channel: initialize, placeholder, snapshot and timeline in every family")
    func channel() async throws {
        let temporary = try Self.container(Self.week)
        defer { temporary.remove() }
        let channel = try ExampleChannel(WeightWidget(provider: Self.provider(temporary)))
        let initialized = try await channel.call("initialize", [:]).decode(as: InitializeResult.self)
        #expect(initialized.widgets.map(\.kind) == ["WeightWidget"])
        #expect(initialized.widgets[0].supportedFamilies == [.systemSmall, .systemMedium, .systemLarge])
        for family in initialized.widgets[0].supportedFamilies {
            let timeline = try await channel.timeline("WeightWidget", family)
            #expect(timeline.policy == .after(Self.now.addingTimeInterval(4 * 3600)))
            let texts = timeline.entries.first?.view?.root.texts ?? []
            #expect(texts.contains("81.4") && texts.contains("kg") && texts.contains("Down this week"), "\(texts)")
            #expect(texts.contains("Last 7 days") == (family == .systemLarge))
            #expect(texts.contains("6.4 to go") == (family != .systemSmall))
            let snapshot = try await channel.entry("snapshot/get", "WeightWidget", family)
            #expect(snapshot.view?.root.texts.contains("kg") == true)
            let placeholder = try await channel.entry("placeholder/get", "WeightWidget", family)
            #expect(placeholder.view?.root.texts.contains("169.0") == true)
        }
    }

    @Test("The built extension, as the host runs it: empty container, then the app's data")
    func process() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let widget = ExtensionUnderTest("W8TrackrWidget", appGroups: [W8TrackrContainer.appGroup: temporary.url])
        let empty = try #require(try widget.timeline(kind: "WeightWidget", family: "systemSmall")["entries"]?[0])
        #expect(empty.viewTexts == ["Add your first weigh-in"])
        #expect(empty.viewArchive?.root.allModifiers.contains(.widgetURL("w8trackr://addWeight")) == true)
        let app = AppCommand(name: "w8trackr", group: W8TrackrContainer.appGroup, container: temporary.url)
        let logged = try app.run(["log", "81.4", "--unit", "kg"])
        #expect(logged.status == 0, "\(logged.error)")
        #expect(logged.error.contains("WidgetCenter: reloadTimelines(ofKind: \"WeightWidget\") failed"), "the app calls WidgetCenter")
        #expect(try app.run(["goal", "75", "--unit", "kg"]).status == 0)
        let texts = try widget.timeline(kind: "WeightWidget", family: "systemMedium")["entries"]?[0]?.viewTexts ?? []
        #expect(texts.contains("81.4") && texts.contains("Goal 75.0 kg") && texts.contains("kg"), "\(texts)")
    }

    @Test("The app refuses bad input with a clear message, and writes nothing")
    func badInput() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let app = AppCommand(name: "w8trackr", group: W8TrackrContainer.appGroup, container: temporary.url)
        let negative = try app.run(["log", "--", "-3"])
        #expect(negative.status != 0 && negative.error.contains("the weight must be a positive number"))
        let unit = try app.run(["log", "80", "--unit", "stone"])
        #expect(unit.status != 0 && unit.error.contains("stone"))
        #expect(try W8TrackrContainer(url: temporary.url).weighIns().isEmpty)
        let orphan = AppCommand(name: "w8trackr", group: "group.other", container: temporary.url)
        let unentitled = try orphan.run(["log", "80"])
        #expect(unentitled.status != 0 && unentitled.error.contains("WIDGETHOST_APP_GROUPS=group.com.w8trackr="))
    }

    @Test("Concurrent app processes never lose a weigh-in or a preference")
    func concurrentProcesses() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let app = AppCommand(name: "w8trackr", group: W8TrackrContainer.appGroup, container: temporary.url)
        let weights = (0..<8).map { 80 + Double($0) / 10 }
        try app.runConcurrently(weights.map { ["log", String($0), "--unit", "kg"] } + [["goal", "70"]])
        let container = W8TrackrContainer(url: temporary.url)
        #expect(try container.weighIns().map(\.weight).sorted() == weights)
        #expect(try container.preferences().goalWeight == 70)
    }

    @Test("Concurrent writers on threads never lose a weigh-in")
    func concurrentThreads() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let url = temporary.url
        try concurrently(4) { thread in
            for index in 0..<40 {
                try W8TrackrContainer(url: url).updateWeighIns {
                    $0.append(WeighIn(date: Self.day(Double(thread * 40 + index) / 1000), weight: 80, unit: .kg))
                }
            }
        }
        #expect(try W8TrackrContainer(url: url).weighIns().count == 160)
    }
}
