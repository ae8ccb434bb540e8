import BirthdayRemindersShared
import Foundation
import Testing
import WidgetHostProtocol

/// The built BirthdayRemindersWidget extension, as widgethostd runs it.
@Suite("Birthday Reminders: the extension process")
struct BirthdayExtensionTests {
    /// A container holding the given birthdays (none: a first launch, before any sync).
    static func container(_ birthdays: [Birthday]?) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if let birthdays { try BirthdayStore(container: url).save(birthdays) }
        return url
    }

    static let people = [
        Birthday(name: "Ada Lovelace", month: 12, day: 10, year: 1815),
        Birthday(name: "Grace Hopper", month: 12, day: 9, year: 1906),
        Birthday(name: "Alan Turing", month: 6, day: 23),
        Birthday(name: "Edsger Dijkstra", month: 5, day: 11),
        Birthday(name: "Barbara Liskov", month: 11, day: 7),
        Birthday(name: "Dennis Ritchie", month: 9, day: 9),
        Birthday(name: "Katherine Johnson", month: 8, day: 26),
        Birthday(name: "Margaret Hamilton", month: 8, day: 17),
        Birthday(name: "Leap", month: 2, day: 29),
    ]

    @Test("initialize lists both widgets with the families of seeds/000")
    func initialize() throws {
        let result = try ExtensionUnderTest("BirthdayRemindersWidget").call([("initialize", [:])])[0]
        let widgets = result["widgets"]
        #expect(widgets?[0]?["kind"]?.stringValue == "BirthdayHomeWidget")
        #expect(widgets?[0]?["supportedFamilies"] == ["systemSmall", "systemMedium", "systemLarge"])
        #expect(widgets?[1]?["kind"]?.stringValue == "BirthdayLockScreenWidget")
        #expect(widgets?[1]?["supportedFamilies"] == ["accessoryCircular", "accessoryRectangular", "accessoryInline"])
    }

    @Test(
        "The home widget shows the next 1, 4 or 8 birthdays by family",
        arguments: [("systemSmall", 1), ("systemMedium", 4), ("systemLarge", 8)])
    func homeFamilies(family: String, count: Int) throws {
        let group = try Self.container(Self.people)
        defer { try? FileManager.default.removeItem(at: group) }
        let widget = ExtensionUnderTest("BirthdayRemindersWidget", appGroups: [BirthdayStore.appGroup: group])
        let timeline = try widget.timeline(kind: "BirthdayHomeWidget", family: family)
        let entry = try #require(timeline["entries"]?[0])
        // The view shows 1, 4 or 8 of the 8 birthdays the entry carries.
        #expect(entry["content"]?["upcomingBirthdays"]?.arrayCount == 8)
        let texts = entry.viewTexts
        let shown = Self.people.map(\.name).filter(texts.contains)
        #expect(shown.count == count, "\(texts)")
        #expect(entry.viewArchive?.family?.rawValue == family)
        #expect(timeline["entries"]?.arrayCount == 1)
        #expect(!texts.contains { $0.contains("No birthdays yet") })
        #expect(entry.viewArchive?.root.allModifiers.contains { if case .containerBackground = $0 { true } else { false } } == true)
    }

    @Test(
        "The lock screen widget: a countdown, name and days, or one line",
        arguments: ["accessoryCircular", "accessoryRectangular", "accessoryInline"])
    func lockScreenFamilies(family: String) throws {
        let group = try Self.container([Birthday(name: "Only One", month: 1, day: 1)])
        defer { try? FileManager.default.removeItem(at: group) }
        let widget = ExtensionUnderTest("BirthdayRemindersWidget", appGroups: [BirthdayStore.appGroup: group])
        let entry = try #require(try widget.timeline(kind: "BirthdayLockScreenWidget", family: family)["entries"]?[0])
        let root = try #require(entry.viewArchive?.root)
        let texts = root.texts
        switch family {
        case "accessoryCircular":
            // A capacity ring counting the days down.
            guard case .gauge(let gauge) = root.content else { Issue.record("not a gauge: \(root.type)"); return }
            #expect(gauge.style == "accessoryCircularCapacity" && gauge.max == 30)
        case "accessoryRectangular":
            #expect(texts.contains("Only One"))
            #expect(root.allModifiers.contains(.privacySensitive(true)))
        default:
            #expect(texts.count == 1 && texts[0].hasPrefix("[gift") && texts[0].contains("Only One"))
        }
    }

    @Test("The policy is .after(the next local midnight), in the extension's time zone")
    func refreshesAtMidnight() throws {
        let group = try Self.container(Self.people)
        defer { try? FileManager.default.removeItem(at: group) }
        for zone in ["UTC", "Asia/Tokyo", "America/New_York"] {
            let widget = ExtensionUnderTest("BirthdayRemindersWidget", appGroups: [BirthdayStore.appGroup: group], timeZone: zone)
            let before = Date()
            let timeline = try widget.timeline(kind: "BirthdayHomeWidget", family: "systemSmall")
            #expect(timeline["policy"]?["type"]?.stringValue == "after")
            let due = try #require(timeline["policy"]?["date"]?.stringValue.flatMap { RFC3339.parse($0) })
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone)!
            #expect(due == BirthdayCalculator.nextMidnight(after: before, calendar: calendar) || due == BirthdayCalculator.nextMidnight(after: Date(), calendar: calendar))
            #expect(calendar.component(.hour, from: due) == 0 && calendar.component(.minute, from: due) == 0)
        }
    }

    @Test(
        "First launch (an empty container) and a missing entitlement both give the empty state, never an error",
        arguments: [true, false])
    func emptyState(entitled: Bool) throws {
        let group = try Self.container(nil)
        defer { try? FileManager.default.removeItem(at: group) }
        let widget = ExtensionUnderTest("BirthdayRemindersWidget", appGroups: entitled ? [BirthdayStore.appGroup: group] : [:])
        let home = try #require(try widget.timeline(kind: "BirthdayHomeWidget", family: "systemMedium")["entries"]?[0])
        #expect(home["content"]?["upcomingBirthdays"]?.arrayCount == 0)
        #expect(home.viewTexts == ["No birthdays yet. Add some in Birthday Reminders."])
        let lock = try #require(try widget.timeline(kind: "BirthdayLockScreenWidget", family: "accessoryInline")["entries"]?[0])
        #expect(lock.viewTexts == ["No upcoming birthdays"])
    }

    @Test("The placeholder is sample data and the gallery snapshot shows it when there is no data yet")
    func placeholderAndPreview() throws {
        let group = try Self.container(nil)
        defer { try? FileManager.default.removeItem(at: group) }
        let widget = ExtensionUnderTest("BirthdayRemindersWidget", appGroups: [BirthdayStore.appGroup: group])
        let replies = try widget.call([
            ("placeholder/get", ["kind": "BirthdayHomeWidget", "family": "systemLarge"]),
            ("snapshot/get", ["kind": "BirthdayHomeWidget", "family": "systemLarge", "isPreview": true]),
            ("snapshot/get", ["kind": "BirthdayHomeWidget", "family": "systemLarge", "isPreview": false]),
        ])
        #expect(replies[0].viewTexts.contains("Ada Lovelace"))
        // The placeholder is drawn redacted, as the system does.
        #expect(replies[0].viewArchive?.root.modifiers.last == .redacted("placeholder"))
        #expect(replies[1].viewTexts.contains("Grace Hopper"))
        #expect(replies[2].viewTexts == ["No birthdays yet. Add some in Birthday Reminders."])
    }
}
