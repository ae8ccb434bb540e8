import BirthdayRemindersShared
import Foundation
import Testing

/// The Birthday Reminders app's shared logic: next occurrence, ordering, the app group file.
@Suite("Birthday Reminders: shared logic")
struct BirthdayRemindersTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func day(_ year: Int, _ month: Int, _ day: Int, hour: Int = 0) -> Date {
        utc.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
    }

    @Test("The next occurrence is today, later this year, or next year")
    func nextOccurrence() {
        let ada = Birthday(name: "Ada", month: 12, day: 10, year: 1815)
        #expect(ada.nextOccurrence(onOrAfter: Self.day(2026, 12, 10, hour: 15), calendar: Self.utc) == Self.day(2026, 12, 10))
        #expect(ada.nextOccurrence(onOrAfter: Self.day(2026, 3, 1), calendar: Self.utc) == Self.day(2026, 12, 10))
        #expect(ada.nextOccurrence(onOrAfter: Self.day(2026, 12, 11), calendar: Self.utc) == Self.day(2027, 12, 10))
        #expect(ada.age(at: Self.day(2026, 12, 10), calendar: Self.utc) == 211)
    }

    @Test("29 February is celebrated on 28 February in common years, on the 29th in leap years")
    func leapDay() {
        let leap = Birthday(name: "Leap", month: 2, day: 29)
        #expect(leap.nextOccurrence(onOrAfter: Self.day(2027, 1, 1), calendar: Self.utc) == Self.day(2027, 2, 28))
        #expect(leap.nextOccurrence(onOrAfter: Self.day(2028, 1, 1), calendar: Self.utc) == Self.day(2028, 2, 29))
        #expect(leap.nextOccurrence(onOrAfter: Self.day(2027, 3, 1), calendar: Self.utc) == Self.day(2028, 2, 29))
    }

    @Test("Upcoming birthdays come soonest first, ties by name, limited, with days and ages")
    func upcoming() {
        let birthdays = [
            Birthday(name: "Zed", month: 1, day: 5),
            Birthday(name: "Amy", month: 1, day: 5, year: 2000),
            Birthday(name: "Today", month: 1, day: 1),
            Birthday(name: "Far", month: 12, day: 31),
        ]
        let upcoming = BirthdayCalculator.upcoming(birthdays, from: Self.day(2026, 1, 1, hour: 23), limit: 3, calendar: Self.utc)
        #expect(upcoming.map(\.name) == ["Today", "Amy", "Zed"])
        #expect(upcoming.map(\.daysUntil) == [0, 4, 4])
        #expect(upcoming[1].turning == 26)
        #expect(upcoming[2].turning == nil)
    }

    @Test("The next midnight is the start of tomorrow, also from one second before it")
    func nextMidnight() {
        #expect(BirthdayCalculator.nextMidnight(after: Self.day(2026, 2, 28, hour: 12), calendar: Self.utc) == Self.day(2026, 3, 1))
        let lastSecond = Self.day(2026, 12, 31).addingTimeInterval(86_399)
        #expect(BirthdayCalculator.nextMidnight(after: lastSecond, calendar: Self.utc) == Self.day(2027, 1, 1))
    }

    @Test("Impossible dates and empty names are refused with the reason")
    func validation() throws {
        #expect(throws: BirthdayError.invalidDate(name: "X", month: 2, day: 30)) {
            try Birthday(name: "X", month: 2, day: 30).validated()
        }
        #expect(throws: BirthdayError.invalidDate(name: "X", month: 13, day: 1)) {
            try Birthday(name: "X", month: 13, day: 1).validated()
        }
        #expect(throws: BirthdayError.emptyName) { try Birthday(name: " ", month: 1, day: 1).validated() }
        #expect(try Birthday(name: "Leap", month: 2, day: 29).validated().day == 29)
        #expect("\(BirthdayError.invalidDate(name: "X", month: 2, day: 30))".contains("not a day of the year"))
    }

    @Test("The app group file: none yet is an empty list; a save replaces it whole, leaving no temporary file")
    func store() throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("birthdays-\(UUID())")
        defer { try? FileManager.default.removeItem(at: container) }
        let store = BirthdayStore(container: container)
        #expect(try store.load().isEmpty)
        let birthdays = [Birthday(name: "Ada", month: 12, day: 10, year: 1815), Birthday(name: "Leap", month: 2, day: 29)]
        try store.save(birthdays)
        #expect(try store.load() == birthdays)
        try store.save([birthdays[1]])
        #expect(try store.load() == [birthdays[1]])
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.path) == [BirthdayStore.fileName])
    }

    @Test("A damaged file is an error, not an empty list (the app must not overwrite it silently)")
    func damagedFile() throws {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("birthdays-\(UUID())")
        defer { try? FileManager.default.removeItem(at: container) }
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        try Data("{\"birthdays\": [".utf8).write(to: container.appendingPathComponent(BirthdayStore.fileName))
        #expect(throws: DecodingError.self) { try BirthdayStore(container: container).load() }
    }
}
