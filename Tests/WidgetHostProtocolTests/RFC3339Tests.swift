import Foundation
import SeededRandom
import Testing
import WidgetHostProtocol

@Suite("RFC 3339 dates")
struct RFC3339Tests {
    /// 2026-02-15T08:00:00Z
    let eight = Date(timeIntervalSince1970: 1_771_142_400)

    @Test("Whole seconds in UTC", arguments: ["2026-02-15T08:00:00Z", "2026-02-15t08:00:00z", "2026-02-15 08:00:00Z"])
    func utc(text: String) {
        #expect(RFC3339.parse(text) == eight)
    }

    @Test("Fractional seconds, any number of digits", arguments: [
        ("2026-02-15T08:00:00.5Z", 0.5),
        ("2026-02-15T08:00:00.250Z", 0.25),
        ("2026-02-15T08:00:00.123456Z", 0.123456),
        ("2026-02-15T08:00:00.000000001Z", 0.000000001),
    ])
    func fraction(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.parse(text))
        #expect(abs(date.timeIntervalSince(eight) - seconds) < 1e-6)
    }

    @Test("Numeric offsets are applied", arguments: [
        "2026-02-15T10:00:00+02:00",
        "2026-02-15T02:30:00-05:30",
        "2026-02-15T08:00:00+00:00",
        "2026-02-15T08:00:00-00:00",
        "2026-02-16T07:59:00+23:59",
    ])
    func offsets(text: String) {
        #expect(RFC3339.parse(text) == eight)
    }

    @Test("An offset moves the date across midnight and across a month end")
    func offsetAcrossMonth() {
        #expect(RFC3339.parse("2026-02-28T23:00:00-05:00") == RFC3339.parse("2026-03-01T04:00:00Z"))
    }

    @Test("Leap days exist in leap years only", arguments: [
        ("2024-02-29T12:00:00Z", true),
        ("2000-02-29T12:00:00Z", true),
        ("2026-02-29T12:00:00Z", false),
        ("1900-02-29T12:00:00Z", false),
        ("2100-02-29T12:00:00Z", false),
    ])
    func leapDay(text: String, valid: Bool) {
        #expect((RFC3339.parse(text) != nil) == valid)
    }

    @Test("The leap day parses to the day after the 28th")
    func leapDayValue() {
        #expect(RFC3339.parse("2024-02-29T00:00:00Z") == RFC3339.parse("2024-02-28T00:00:00Z")?.addingTimeInterval(86_400))
        #expect(RFC3339.parse("2024-03-01T00:00:00Z") == RFC3339.parse("2024-02-29T00:00:00Z")?.addingTimeInterval(86_400))
    }

    @Test("Invalid strings are rejected", arguments: [
        "",
        "2026-02-15T08:00:00",  // missing zone
        "2026-02-15",  // date only
        "2026-13-01T00:00:00Z",  // bad month
        "2026-00-10T00:00:00Z",  // month zero
        "2026-02-30T00:00:00Z",  // Feb 30
        "2026-04-31T00:00:00Z",  // April has 30 days
        "2026-02-00T00:00:00Z",  // day zero
        "2026-02-15T24:00:00Z",  // hour 24
        "2026-02-15T08:60:00Z",  // minute 60
        "2026-02-15T08:00:61Z",  // second 61
        "2026-02-15T08:00:00Zjunk",  // trailing garbage
        "2026-02-15T08:00:00Z ",  // trailing space
        "2026-02-15T08:00:00+02:00:00",  // trailing garbage after the offset
        "2026-2-15T08:00:00Z",  // one-digit month
        "26-02-15T08:00:00Z",  // two-digit year
        "2026-02-15T08:00Z",  // no seconds
        "2026-02-15T08:00:00.Z",  // a point without digits
        "2026-02-15T08:00:00+0200",  // offset without colon
        "2026-02-15T08:00:00+02",  // offset without minutes
        "2026-02-15T08:00:00+24:00",  // offset hour out of range
        "2026-02-15T08:00:00+02:60",  // offset minute out of range
        "2026-02-15X08:00:00Z",  // wrong separator
        " 2026-02-15T08:00:00Z",  // leading space
        "２０２６-02-15T08:00:00Z",  // non-ASCII digits
    ])
    func invalid(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("A leap second reads as the last second of its minute")
    func leapSecond() {
        #expect(RFC3339.parse("2016-12-31T23:59:60Z") == RFC3339.parse("2016-12-31T23:59:59Z"))
    }

    @Test("Formatting writes UTC with Z, fractional seconds only when there are some", arguments: [
        (1_771_142_400.0, "2026-02-15T08:00:00Z"),
        (1_771_142_400.5, "2026-02-15T08:00:00.5Z"),
        (1_771_142_400.25, "2026-02-15T08:00:00.25Z"),
        (0, "1970-01-01T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (-0.5, "1969-12-31T23:59:59.5Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
    ])
    func format(seconds: Double, text: String) {
        #expect(RFC3339.format(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test("Formatting rounds to the microsecond, carrying into the next second")
    func formatRounding() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_000_000.123_456_4)) == "1970-01-12T13:46:40.123456Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_000_000.999_999_9)) == "1970-01-12T13:46:41Z")
    }

    @Test("Canonical strings survive parse then format", arguments: [
        "2026-02-15T08:00:00Z", "2024-02-29T23:59:59Z", "2026-02-15T08:00:00.5Z", "2026-12-31T00:00:00.125Z",
        "1999-01-01T00:00:00Z", "2038-01-19T03:14:08Z",
    ])
    func textRoundTrip(text: String) throws {
        #expect(RFC3339.format(try #require(RFC3339.parse(text))) == text)
    }

    @Test("An offset date formats as the same instant in UTC")
    func offsetFormatsAsUTC() throws {
        #expect(RFC3339.format(try #require(RFC3339.parse("2026-02-15T02:30:00.75-05:30"))) == "2026-02-15T08:00:00.75Z")
    }

    @Test("Dates survive format then parse to the microsecond")
    func dateRoundTrip() throws {
        var seconds = -86_400.0 * 365
        while seconds < 86_400.0 * 365 * 80 {
            let date = Date(timeIntervalSince1970: seconds)
            let parsed = try #require(RFC3339.parse(RFC3339.format(date)))
            #expect(abs(parsed.timeIntervalSince(date)) < 1e-6, "\(RFC3339.format(date))")
            seconds += 1_234_567.891
        }
    }

    @Test("append writes format's bytes: whole seconds, every fraction width, rounding, years 0...9999 and beyond")
    func appendIsFormat() {
        var seconds = -86_400.0 * 365 * 2_000
        var dates: [Date] = []
        while seconds < 86_400.0 * 365 * 9_000 {
            dates.append(Date(timeIntervalSince1970: seconds))
            seconds += 86_400.0 * 365 * 7.3 + 0.000_1
        }
        seconds = -3_000.0
        while seconds < 3_000.0 {
            dates.append(Date(timeIntervalSince1970: seconds))
            seconds += 0.987_654_3
        }
        for fraction in [0.0, 0.1, 0.12, 0.123, 0.1234, 0.12345, 0.123456, 0.000_001, 0.000_010, 0.5, 0.999_999_4, 0.999_999_6] {
            dates.append(Date(timeIntervalSince1970: 1_764_250_000 + fraction))
            dates.append(Date(timeIntervalSince1970: -1_764_250_000 + fraction))
        }
        dates += [.distantPast, .distantFuture, Date(timeIntervalSince1970: -62_167_219_200), Date(timeIntervalSince1970: 253_402_300_799.5)]
        for date in dates {
            var bytes: [UInt8] = Array("x".utf8)
            RFC3339.append(date, to: &bytes)
            #expect(bytes == Array(("x" + RFC3339.format(date)).utf8), "\(RFC3339.format(date))")
        }
    }

    @Test("The wire coders use RFC 3339 for every Date")
    func wireCoding() throws {
        struct Stamp: Codable, Equatable { let at: Date }
        let data = try WireCoding.encode(Stamp(at: eight))
        #expect(String(decoding: data, as: UTF8.self) == #"{"at":"2026-02-15T08:00:00Z"}"#)
        #expect(try WireCoding.decode(Stamp.self, from: Data(#"{"at":"2026-02-15T10:00:00+02:00"}"#.utf8)) == Stamp(at: eight))
        #expect(throws: DecodingError.self) { try WireCoding.decode(Stamp.self, from: Data(#"{"at":"15/02/2026"}"#.utf8)) }
    }

    @Test("Formatting writes what the String-built formatter wrote, over four centuries and every fraction shape")
    func formatMatchesReference() {
        var generator = SeededGenerator(seed: 16)
        var dates = [
            Date(timeIntervalSince1970: 0), eight, eight.addingTimeInterval(0.5), eight.addingTimeInterval(0.000001),
            eight.addingTimeInterval(0.9999996), eight.addingTimeInterval(-0.25), Date(timeIntervalSince1970: -1),
            Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799.5),
            RFC3339.parse("2024-02-29T23:59:59.123Z")!, RFC3339.parse("2000-12-31T00:00:00.10Z")!,
        ]
        for _ in 0..<5_000 {
            let seconds = Double(generator.next() % 12_600_000_000) - 6_000_000_000
            let micros = Double(generator.next() % 1_000_000) / 1_000_000
            dates.append(Date(timeIntervalSince1970: seconds + (generator.next() % 3 == 0 ? 0 : micros)))
        }
        for date in dates {
            #expect(RFC3339.format(date) == Self.reference(date), "\(date.timeIntervalSince1970)")
            #expect(RFC3339.parse(RFC3339.format(date)).map { abs($0.timeIntervalSince(date)) < 1e-6 } == true)
        }
        // Years outside 0...9999 are written the slow way (and `parse` reads four-digit years only).
        for date in [Date(timeIntervalSince1970: 253_402_300_800.25), Date(timeIntervalSince1970: -62_200_000_000.5)] {
            #expect(RFC3339.format(date) == Self.reference(date), "\(date.timeIntervalSince1970)")
        }
    }

    /// The formatter as it was written before it wrote bytes (issue 16): the reference.
    static func reference(_ date: Date) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let interval = date.timeIntervalSince1970
        var whole = Int(interval.rounded(.down))
        var micros = Int(((interval - Double(whole)) * 1_000_000).rounded())
        if micros == 1_000_000 {
            whole += 1
            micros = 0
        }
        let days = Int((Double(whole) / 86_400).rounded(.down))
        let secondOfDay = whole - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros != 0 {
            var fraction = pad(micros, 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }
}
