import Foundation

/// A person's birthday as the app stores it: a day of the year, and the year of birth when known.
public struct Birthday: Codable, Sendable, Hashable {
    public var name: String
    public var month: Int
    public var day: Int
    public var year: Int?

    public init(name: String, month: Int, day: Int, year: Int? = nil) {
        self.name = name
        self.month = month
        self.day = day
        self.year = year
    }

    /// The start of the day this birthday is next celebrated, `date`'s own day included.
    /// A 29 February birthday is celebrated on 28 February in common years.
    public func nextOccurrence(onOrAfter date: Date, calendar: Calendar) -> Date {
        let today = calendar.startOfDay(for: date)
        var year = calendar.component(.year, from: today)
        while true {
            if let occurrence = occurrence(in: year, calendar: calendar), occurrence >= today {
                return occurrence
            }
            year += 1
        }
    }

    /// The age reached at `occurrence`, when the year of birth is known.
    public func age(at occurrence: Date, calendar: Calendar) -> Int? {
        year.map { calendar.component(.year, from: occurrence) - $0 }
    }

    private func occurrence(in year: Int, calendar: Calendar) -> Date? {
        var components = DateComponents(year: year, month: month, day: day)
        if month == 2, day == 29, !Self.isLeap(year) { components.day = 28 }
        return calendar.date(from: components)
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}

/// Why a birthday cannot be stored.
public enum BirthdayError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyName
    case invalidDate(name: String, month: Int, day: Int)

    public var description: String {
        switch self {
        case .emptyName:
            "a birthday needs a name"
        case .invalidDate(let name, let month, let day):
            "\(name): \(month)-\(day) is not a day of the year (month 1–12, day within the month)"
        }
    }
}

extension Birthday {
    /// Checks the day exists in a leap year (so 29 February is accepted).
    public func validated() throws(BirthdayError) -> Birthday {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw .emptyName }
        let daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...daysInMonth[month - 1]).contains(day) else {
            throw .invalidDate(name: name, month: month, day: day)
        }
        return self
    }
}
