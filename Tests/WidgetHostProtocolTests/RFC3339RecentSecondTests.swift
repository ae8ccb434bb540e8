import Foundation
import SeededRandom
import Testing
import WidgetHostProtocol

/// `RFC3339.RecentSecond` against `RFC3339.format`: the same bytes for every date, whatever
/// came before it (the kept second reused, replaced, or skipped for a wide year).
@Suite("RFC 3339: the recent second's text")
struct RFC3339RecentSecondTests {
    /// One `RecentSecond` through `dates` in order, each compared with `format`.
    static func mismatches(_ dates: [Date]) -> [String] {
        var recent = RFC3339.RecentSecond()
        var found: [String] = []
        for date in dates {
            recent.set(date)
            let text = String(decoding: recent.text, as: UTF8.self)
            let expected = RFC3339.format(date)
            if text != expected { found.append("\(date.timeIntervalSince1970): \(text) ≠ \(expected)") }
        }
        return found
    }

    /// `boundary` and dates around it: ±1 µs, ±0.4 µs (rounding to either side), half a
    /// second before, the last representable microsecond, and back again.
    static func around(_ text: String) -> [Date] {
        let boundary = RFC3339.parse(text)!.timeIntervalSince1970
        let offsets = [-1.0, -0.5, -0.000_001, -0.000_000_4, 0, 0.000_000_4, 0.000_001, 0.25, 0.999_999, 0.999_999_6, 1, -0.000_001]
        return offsets.map { Date(timeIntervalSince1970: boundary + $0) }
    }

    @Test(
        "Across second, minute, hour, day, month and year boundaries and leap days",
        arguments: [
            "2026-11-27T13:25:20Z", "2026-11-27T13:26:00Z", "2026-11-27T14:00:00Z", "2026-11-28T00:00:00Z",
            "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z", "2024-02-29T00:00:00Z", "2024-03-01T00:00:00Z",
            "2000-02-29T00:00:00Z", "2000-03-01T00:00:00Z", "1900-03-01T00:00:00Z", "2100-03-01T00:00:00Z",
            "2023-03-01T00:00:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "0001-01-01T00:00:00Z",
            "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
        ])
    func boundaries(text: String) {
        #expect(Self.mismatches(Self.around(text)) == [])
    }

    @Test("A clock's run: many dates within each second, then the next second, and a step back")
    func clockRun() {
        let start = RFC3339.parse("2026-11-27T23:59:58Z")!.timeIntervalSince1970
        var dates: [Date] = []
        for step in 0..<40_000 { dates.append(Date(timeIntervalSince1970: start + Double(step) * 0.000_073)) }
        // The clock set back by a second, and a day, then on again.
        dates.append(Date(timeIntervalSince1970: start + 1.5))
        dates.append(Date(timeIntervalSince1970: start + 0.5))
        dates.append(Date(timeIntervalSince1970: start - 86_400 + 0.5))
        dates.append(Date(timeIntervalSince1970: start + 2.5))
        #expect(Self.mismatches(dates) == [])
    }

    @Test("Years past 9999 and before 0 are written as format writes them, and the next date is right again")
    func wideYears() {
        let dates = [
            RFC3339.parse("2026-11-27T13:25:20.5Z")!, Date(timeIntervalSince1970: 253_402_300_800.25),
            RFC3339.parse("2026-11-27T13:25:20.75Z")!, Date(timeIntervalSince1970: -62_200_000_000.5),
            Date(timeIntervalSince1970: -62_200_000_000.25), RFC3339.parse("2026-11-27T13:25:20Z")!,
            // 9999-12-31T23:59:59.9999996 rounds up into year 10000.
            Date(timeIntervalSince1970: 253_402_300_799.999_999_6),
        ]
        #expect(Self.mismatches(dates) == [])
    }

    @Test("Random dates, in random order and in pairs within a second")
    func random() {
        var generator = SeededGenerator(seed: 13)
        var dates: [Date] = []
        for _ in 0..<20_000 {
            let seconds = Double(generator.next() % 12_600_000_000) - 6_000_000_000
            let micros = Double(generator.next() % 1_000_000) / 1_000_000
            let date = Date(timeIntervalSince1970: seconds + (generator.next() % 3 == 0 ? 0 : micros))
            dates.append(date)
            dates.append(date.addingTimeInterval(Double(generator.next() % 1_000_000) / 1_000_000))
        }
        #expect(Self.mismatches(dates) == [])
    }
}
