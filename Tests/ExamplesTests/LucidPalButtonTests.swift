import Foundation
import LucidPalShared
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("LucidPal: the Done button logs a habit (LogHabitIntent)")
struct LucidPalButtonTests {
    static func controls(_ temporary: TemporaryContainer, _ family: WidgetFamily) async throws -> [ArchiveIntentControl] {
        let channel = try ExampleChannel(LucidPalWidget(provider: LucidPalTests.provider(temporary)))
        let timeline = try await channel.timeline("LucidPalWidget", family)
        return try #require(timeline.entries.first?.view).root.intentControls.map(\.control)
    }

    @Test("Small and medium show one Done button while habits are left; none once all are done, nor on the lock screen")
    func button() async throws {
        let temporary = try LucidPalTests.filled()
        defer { temporary.remove() }
        for family in [WidgetFamily.systemSmall, .systemMedium] {
            let controls = try await Self.controls(temporary, family)
            #expect(controls.map(\.id) == ["b1"])
            #expect(controls.first?.intent == IntentInvocation(type: "LucidPalShared.LogHabitIntent", title: "Log a habit"))
            #expect(controls.first?.label.texts == ["Done"])
        }
        #expect(try await Self.controls(temporary, .accessoryRectangular).isEmpty)
        try LucidPalContainer(url: temporary.url).writeHabits(habitsToday: 5, habitsTotal: 5, topStreakName: nil, topStreakDays: 0)
        #expect(try await Self.controls(temporary, .systemSmall).isEmpty)
    }

    @Test("Logging keeps the note and never counts past the habits there are")
    func log() throws {
        let temporary = try LucidPalTests.filled()
        defer { temporary.remove() }
        let container = LucidPalContainer(url: temporary.url)
        for _ in 0..<3 { try LogHabitIntent.log(in: container, now: LucidPalTests.now) }
        let snapshot = try #require(container.readSnapshot())
        #expect(snapshot.habitsToday == 5 && snapshot.habitsTotal == 5)
        #expect(snapshot.pinnedNote == "Call the dentist" && snapshot.writtenAt == LucidPalTests.now)
    }

    @Test("As the host runs it in the built process: the tap logs a habit, asks for LucidPal's reloads, and the next timeline shows it")
    func process() throws {
        let temporary = try LucidPalTests.filled()
        defer { temporary.remove() }
        let widget = ExtensionUnderTest("LucidPalWidget", appGroups: [LucidPalContainer.appGroup: temporary.url])
        let before = try widget.timeline(kind: "LucidPalWidget", family: "systemSmall")
        let button = try #require(before["entries"]?[0]?.viewArchive?.root.intentControls.first?.control)
        let perform = try JSONValue(
            encoding: IntentPerformParams(intent: button.intent, kind: "LucidPalWidget", widgetId: "w1", now: LucidPalTests.now))
        let results = try widget.call([
            ("intent/perform", perform),
            ("timeline/get", ["kind": "LucidPalWidget", "family": "systemSmall", "widgetId": "w1", "now": "2026-12-08T12:00:00Z"]),
        ])
        #expect(try results[0].decode(as: IntentPerformResult.self) == IntentPerformResult(reloadKinds: ["LucidPalWidget"]))
        #expect(results[1]["entries"]?[0]?.viewTexts.contains("4/5") == true)
        #expect(LucidPalContainer(url: temporary.url).readSnapshot()?.habitsToday == 4)

        let unentitled = ExtensionUnderTest("LucidPalWidget")
        let failed = try unentitled.call([("intent/perform", perform)])[0].decode(as: IntentPerformResult.self)
        #expect(failed.error?.contains("the LucidPal App Group (group.app.lucidpal) is not available") == true)
        #expect(failed.reloadKinds == nil)
    }
}
