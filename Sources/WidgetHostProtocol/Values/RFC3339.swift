import Foundation

/// RFC 3339 timestamps, the only date form on both channels.
///
/// Parsing accepts `Z` or a numeric offset and any number of fractional digits;
/// formatting always writes UTC with `Z`, and fractional seconds (to the microsecond)
/// only when there are some. Hand-written rather than `ISO8601DateFormatter` so that it
/// is a pure, `Sendable` function with no shared formatter state.
public enum RFC3339 {
    public static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.expect(UInt8(ascii: "-")),
            let month = scanner.digits(2), scanner.expect(UInt8(ascii: "-")),
            let day = scanner.digits(2), scanner.expect(anyOf: [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")]),
            let hour = scanner.digits(2), scanner.expect(UInt8(ascii: ":")),
            let minute = scanner.digits(2), scanner.expect(UInt8(ascii: ":")),
            let second = scanner.digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }

        var fraction = 0.0
        if scanner.expect(UInt8(ascii: ".")) {
            var scale = 0.1
            var count = 0
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { return nil }
        }

        let offsetSeconds: Int
        if scanner.expect(anyOf: [UInt8(ascii: "Z"), UInt8(ascii: "z")]) {
            offsetSeconds = 0
        } else if let sign = scanner.take(anyOf: [UInt8(ascii: "+"), UInt8(ascii: "-")]),
            let offsetHours = scanner.digits(2), scanner.expect(UInt8(ascii: ":")),
            let offsetMinutes = scanner.digits(2), offsetHours < 24, offsetMinutes < 60
        {
            let magnitude = offsetHours * 3600 + offsetMinutes * 60
            offsetSeconds = sign == UInt8(ascii: "+") ? magnitude : -magnitude
        } else {
            return nil
        }
        guard scanner.atEnd else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Into 27 bytes on the stack, without a `String` per field: every date in every record,
    /// notice and reply comes through here (building it from padded `String`s cost ~8,000
    /// instructions a date, 0.3 M per warm reload).
    public static func format(_ date: Date) -> String {
        let (whole, micros) = split(date)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 27) { buffer in
            guard let count = write(whole: whole, micros: micros, into: buffer.baseAddress!) else {
                return formatWide(whole: whole, micros: micros)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }

    /// `format(date)`'s bytes appended to `bytes`, without the `String`: a date's digits are
    /// put into a 32-byte value on the stack and appended in one copy. Through `format` a date
    /// written into a record or a notice cost ~1,300 instructions (the `String`, its UTF-8
    /// view appended), about 19 of them a warm reload (issue 16, callgrind).
    /// `RFC3339Tests` compares the bytes with `format`'s.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        let (whole, micros) = split(date)
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { raw in
            guard let count = write(whole: whole, micros: micros, into: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            else {
                bytes.append(contentsOf: formatWide(whole: whole, micros: micros).utf8)
                return
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: raw.baseAddress, count: count))
        }
    }

    /// The text of a date (its whole seconds since 1970 and microseconds, as `split` gives
    /// them) into `out`, at most 27 bytes: `YYYY-MM-DDTHH:MM:SS`, `.` and the microseconds
    /// without trailing zeros unless there are none, `Z`. Its length, or nil (nothing written)
    /// for a year outside 0...9999. The one writer for `format`, `append` and `RecentSecond`.
    @inline(__always)
    static func write(whole: Int, micros: Int, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        let days = Int((Double(whole) / 86_400).rounded(.down))
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civilFromDays(days)
        guard (0...9999).contains(year) else { return nil }
        putHead(out, year: year, month: month, day: day, secondOfDay: secondOfDay)
        var count = 19
        if micros != 0 {
            out[19] = UInt8(ascii: ".")
            count = 20
            var divisor = 100_000
            var rest = micros
            // Six digits, the trailing zeros left out.
            while rest != 0 {
                out[count] = UInt8(ascii: "0") + UInt8(rest / divisor)
                rest %= divisor
                divisor /= 10
                count += 1
            }
        }
        out[count] = UInt8(ascii: "Z")
        return count + 1
    }

    /// `YYYY-MM-DDTHH:MM:SS` for a year in 0...9999, into `out[0..<19]`: the date and time
    /// that `write` puts before the fraction.
    @inline(__always)
    private static func putHead(_ out: UnsafeMutablePointer<UInt8>, year: Int, month: Int, day: Int, secondOfDay: Int) {
        putTwoDigits(out, at: 0, year / 100)
        putTwoDigits(out, at: 2, year % 100)
        out[4] = UInt8(ascii: "-")
        putTwoDigits(out, at: 5, month)
        out[7] = UInt8(ascii: "-")
        putTwoDigits(out, at: 8, day)
        out[10] = UInt8(ascii: "T")
        putTwoDigits(out, at: 11, secondOfDay / 3600)
        out[13] = UInt8(ascii: ":")
        putTwoDigits(out, at: 14, secondOfDay / 60 % 60)
        out[16] = UInt8(ascii: ":")
        putTwoDigits(out, at: 17, secondOfDay % 60)
    }

    /// `value` (0...99) as two digits at `out[index]` and `out[index + 1]`.
    @inline(__always)
    private static func putTwoDigits(_ out: UnsafeMutablePointer<UInt8>, at index: Int, _ value: Int) {
        out[index] = UInt8(ascii: "0") + UInt8(value / 10)
        out[index + 1] = UInt8(ascii: "0") + UInt8(value % 10)
    }

    /// A year past 9999 (or before 0) keeps its own digits, as `String(year)` wrote it: the
    /// slow way, for those years only.
    private static func formatWide(whole: Int, micros: Int) -> String {
        let days = Int((Double(whole) / 86_400).rounded(.down))
        let (year, month, day) = civilFromDays(days)
        return formatWide(year: year, rest: formatTail(whole - days * 86_400, micros, month, day))
    }

    /// What follows the year, the slow way (years outside 0...9999 only).
    private static func formatTail(_ secondOfDay: Int, _ micros: Int, _ month: Int, _ day: Int) -> String {
        var text = "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros != 0 {
            var fraction = pad(micros, 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    private static func formatWide(year: Int, rest: String) -> String { pad(year, 4) + rest }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func expect(_ byte: UInt8) -> Bool { take(anyOf: [byte]) != nil }
        mutating func expect(anyOf choices: [UInt8]) -> Bool { take(anyOf: choices) != nil }

        mutating func take(anyOf choices: [UInt8]) -> UInt8? {
            guard index < bytes.count, choices.contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
    }
}
