import Foundation
import LucidPalShared
import Testing
import WidgetHostProtocol
import WidgetKit

@Suite("LucidPal: the widget, its two snapshot writers and the lucidpal app")
struct LucidPalTests {
    /// Noon, local time: "earlier today" and "yesterday" are unambiguous.
    static let now = Calendar.current.date(from: DateComponents(year: 2026, month: 2, day: 15, hour: 12))!

    static func provider(_ temporary: TemporaryContainer?) -> LucidPalProvider {
        let url = temporary?.url
        return LucidPalProvider(container: { url.map(LucidPalContainer.init) }, now: { now })
    }

    static func filled(writtenAt: Date = now.addingTimeInterval(-600), events: [CalendarEvent] = []) throws
        -> TemporaryContainer
    {
        let temporary = try TemporaryContainer()
        let container = LucidPalContainer(url: temporary.url)
        try container.writeHabits(habitsToday: 3, habitsTotal: 5, topStreakName: "Meditate", topStreakDays: 12, now: writtenAt)
        try container.writeNote(pinnedNote: "Call the dentist", now: writtenAt)
        try container.updateEvents { $0 = events }
        return temporary
    }

    @Test(
        "Each family shows its part of the snapshot",
        arguments: ["systemSmall", "systemMedium", "accessoryRectangular"])
    func families(familyName: String) async throws {
        let family = try #require(WidgetFamily(rawValue: familyName))
        let event = CalendarEvent(title: "Stand-up", start: Self.now.addingTimeInterval(300), end: Self.now.addingTimeInterval(1200))
        let temporary = try Self.filled(events: [event])
        defer { temporary.remove() }
        let timeline = await Self.provider(temporary).timeline(in: TimelineProviderContext(family: family))
        let view = LucidPalSummary(entry: try #require(timeline.entries.first))
        #expect(timeline.entries.count == 1)
        #expect(view.emptyState == nil && view.habits == "3/5" && view.stale == nil)
        #expect(view.topStreak == (family == .accessoryRectangular ? nil : "Meditate · 12 days"))
        #expect(view.pinnedNote == (family == .systemMedium ? "Call the dentist" : nil))
        #expect((view.event != nil) == (family != .systemSmall))
    }

    @Test("Missing or unreadable snapshot: the empty state, in every family")
    func emptyState() async throws {
        let empty = try TemporaryContainer()
        let garbage = try TemporaryContainer()
        defer { empty.remove(); garbage.remove() }
        try Data("[1,2".utf8).write(to: garbage.url.appendingPathComponent(LucidPalContainer.snapshotFile))
        for temporary in [nil, empty, garbage] {
            for family in [WidgetFamily.systemSmall, .systemMedium, .accessoryRectangular] {
                let entry = await Self.provider(temporary).timeline(in: TimelineProviderContext(family: family)).entries[0]
                let view = LucidPalSummary(entry: entry)
                #expect(view.emptyState == "Log a habit or pin a note in LucidPal" && view.habits == nil && view.stale == nil)
            }
        }
    }

    @Test(
        "Reload at the end of the next event, or after 15 minutes if that is sooner",
        arguments: [
            // (minutes to the events' [start, end]) → minutes to the reload
            ([], 15),
            ([[-30, 10]], 10),  // in progress, ends in 10 minutes
            ([[5, 12], [0, 40]], 12),  // the earliest end, not the earliest start
            ([[30, 90]], 15),  // ends after the fallback
            ([[-60, -5], [-10, 20]], 15),  // ended events do not count
        ] as [([[Double]], Double)])
    func reload(events: [[Double]], expected: Double) async throws {
        let calendar = events.map {
            CalendarEvent(title: "e", start: Self.now.addingTimeInterval($0[0] * 60), end: Self.now.addingTimeInterval($0[1] * 60))
        }
        let temporary = try Self.filled(events: calendar)
        defer { temporary.remove() }
        let timeline = await Self.provider(temporary).timeline(in: TimelineProviderContext(family: .systemMedium))
        #expect(timeline.policy == .after(Self.now.addingTimeInterval(expected * 60)))
    }

    @Test("The event shown is the one in progress, else the next; it is gone once it has ended")
    func event() {
        let past = CalendarEvent(title: "past", start: Self.now.addingTimeInterval(-7200), end: Self.now.addingTimeInterval(-3600))
        let current = CalendarEvent(title: "current", start: Self.now.addingTimeInterval(-600), end: Self.now.addingTimeInterval(600))
        let next = CalendarEvent(title: "next", start: Self.now.addingTimeInterval(3600), end: Self.now.addingTimeInterval(7200))
        #expect(LucidPalProvider.currentOrNextEvent(at: Self.now, in: [next, current, past]) == current)
        #expect(LucidPalProvider.currentOrNextEvent(at: current.end, in: [next, current, past]) == next)
        #expect(LucidPalProvider.currentOrNextEvent(at: next.end, in: [next, current, past]) == nil)
    }

    @Test(
        "Stale when written more than 6 hours ago or on an earlier day",
        arguments: [(-3600, false), (-6 * 3600, false), (-6 * 3600 - 1, true), (-13 * 3600, true)] as [(TimeInterval, Bool)])
    func stale(age: TimeInterval, stale: Bool) async throws {
        let temporary = try Self.filled(writtenAt: Self.now.addingTimeInterval(age))
        defer { temporary.remove() }
        let entry = await Self.provider(temporary).timeline(in: TimelineProviderContext(family: .systemSmall)).entries[0]
        #expect(entry.isStale == stale)
        #expect(LucidPalSummary(entry: entry).stale == (stale ? true : nil))
        let lateEvening = Calendar.current.date(bySettingHour: 23, minute: 59, second: 0, of: Self.now)!
        let midnight = Calendar.current.date(byAdding: .minute, value: 2, to: lateEvening)!
        #expect(LucidPalProvider.isStale(WidgetSnapshot(writtenAt: lateEvening), at: midnight))
    }

    @Test("The placeholder reads nothing from the App Group")
    func placeholder() {
        let provider = LucidPalProvider(container: { Issue.record("the placeholder read the App Group"); return nil })
        #expect(provider.placeholder(in: TimelineProviderContext(family: .systemSmall)).snapshot?.habitsTotal == 5)
    }

    @Test("Each writer keeps the other's fields")
    func writersMerge() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let container = LucidPalContainer(url: temporary.url)
        try container.writeNote(pinnedNote: "Buy milk", now: Self.now)
        try container.writeHabits(habitsToday: 2, habitsTotal: 4, topStreakName: nil, topStreakDays: 9, now: Self.now.addingTimeInterval(60))
        #expect(
            container.readSnapshot()
                == WidgetSnapshot(
                    writtenAt: Self.now.addingTimeInterval(60), habitsToday: 2, habitsTotal: 4, topStreakName: nil,
                    topStreakDays: 0, pinnedNote: "Buy milk"))
        try container.writeNote(pinnedNote: nil, now: Self.now.addingTimeInterval(120))
        #expect(container.readSnapshot()?.habitsToday == 2 && container.readSnapshot()?.pinnedNote == nil)
    }

    @Test("Two writers on threads, 150 writes each: the last write of each survives")
    func concurrentThreads() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let url = temporary.url
        try concurrently(2) { writer in
            let container = LucidPalContainer(url: url)
            for index in 0..<150 {
                if writer == 0 {
                    try container.writeHabits(habitsToday: index, habitsTotal: 150, topStreakName: "s\(index)", topStreakDays: index)
                } else {
                    try container.writeNote(pinnedNote: "note \(index)")
                }
            }
        }
        let snapshot = try #require(LucidPalContainer(url: url).readSnapshot())
        #expect(snapshot.habitsToday == 149 && snapshot.topStreakName == "s149" && snapshot.pinnedNote == "note 149")
    }

    @Test("Habits and notes written by separate app processes at the same moment: neither is lost")
    func concurrentProcesses() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let app = AppCommand(name: "lucidpal", group: LucidPalContainer.appGroup, container: temporary.url)
        for round in 1...6 {
            try app.runConcurrently([
                ["habits", "--done", "\(round)", "--total", "9", "--streak", "Run", "--streak-days", "\(round)"],
                ["note", "note \(round)"],
                ["event", "event \(round)", "--in", "\(round)"],
            ])
            let container = LucidPalContainer(url: temporary.url)
            let snapshot = try #require(container.readSnapshot())
            #expect(snapshot.habitsToday == round && snapshot.topStreakDays == round && snapshot.pinnedNote == "note \(round)")
            #expect(container.readEvents().count == round)
        }
    }

    @Test("Over the extension channel and as a built process, in every family")
    func channelAndProcess() async throws {
        let temporary = try Self.filled()
        defer { temporary.remove() }
        let channel = try ExampleChannel(LucidPalWidget(provider: Self.provider(temporary)))
        let widget = ExtensionUnderTest("LucidPalWidget", appGroups: [LucidPalContainer.appGroup: temporary.url])
        for family in [WidgetFamily.systemSmall, .systemMedium, .accessoryRectangular] {
            let timeline = try await channel.timeline("LucidPalWidget", family)
            let habits = family == .accessoryRectangular ? "3/5 habits" : "3/5"
            #expect(timeline.entries.first?.view?.root.texts.contains(habits) == true)
            #expect(timeline.policy == .after(Self.now.addingTimeInterval(900)))
            #expect(try await channel.entry("placeholder/get", "LucidPalWidget", family).view?.root.texts.contains(habits) == true)
            // The real process reads the same files at the real time: the data is stale by now.
            let texts = try widget.timeline(kind: "LucidPalWidget", family: family.rawValue)["entries"]?[0]?.viewTexts ?? []
            #expect(texts.contains(habits))
            #expect(texts.contains("Updated <relative> ago") == (family != .accessoryRectangular), "\(texts)")
        }
        let empty = try TemporaryContainer()
        defer { empty.remove() }
        let fresh = ExtensionUnderTest("LucidPalWidget", appGroups: [LucidPalContainer.appGroup: empty.url])
        #expect(try fresh.timeline(kind: "LucidPalWidget", family: "systemSmall")["entries"]?[0]?.viewTexts == [LucidPalSummary.emptyMessage])
    }

    @Test("The app refuses bad input with a clear message")
    func badInput() throws {
        let temporary = try TemporaryContainer()
        defer { temporary.remove() }
        let app = AppCommand(name: "lucidpal", group: LucidPalContainer.appGroup, container: temporary.url)
        let tooMany = try app.run(["habits", "--done", "6", "--total", "5"])
        #expect(tooMany.status != 0 && tooMany.error.contains("--done must be between 0 and --total"))
        let note = try app.run(["note"])
        #expect(note.status != 0 && note.error.contains("give a note title, or --unpin"))
        #expect(LucidPalContainer(url: temporary.url).readSnapshot() == nil)
    }
}
