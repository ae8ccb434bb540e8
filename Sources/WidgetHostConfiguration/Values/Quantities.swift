import Foundation

/// Durations as config files and scenarios write them: `"500ms"`, `"30s"`, `"10m"`, `"4h"`,
/// `"7d"`, and combinations such as `"1h30m"`.
public enum DurationText {
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400),
    ]

    /// The number of seconds `text` means, or nil when it is not a duration. A leading `-`
    /// gives a negative duration (for the caller to refuse with a clear message).
    public static func parse(_ text: String) -> TimeInterval? {
        var rest = Substring(text)
        var negative = false
        if rest.first == "-" {
            negative = true
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var total: Double = 0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, number.first != ".", number.last != ".", let value = Double(number) else {
                return nil
            }
            rest = rest.dropFirst(number.count)
            let suffix = rest.prefix { $0.isASCII && $0.isLetter }
            // "ms" before "m": match the whole run of letters.
            guard let unit = units.first(where: { $0.suffix == String(suffix) }) else { return nil }
            rest = rest.dropFirst(suffix.count)
            total += value * unit.seconds
        }
        return negative ? -total : total
    }

    /// The shortest exact spelling: 3600 → `"1h"`, 90 → `"90s"`, 0.5 → `"500ms"`.
    public static func format(_ seconds: TimeInterval) -> String {
        if seconds < 0 { return "-" + format(-seconds) }
        if seconds == 0 { return "0s" }
        for (suffix, size) in units.reversed() where size >= 1 {
            let count = seconds / size
            if count == count.rounded(), count >= 1 { return "\(Int(count))\(suffix)" }
        }
        let milliseconds = seconds * 1000
        if milliseconds == milliseconds.rounded() { return "\(Int(milliseconds))ms" }
        return "\(seconds)s"
    }
}

/// Sizes as config files write them: a number of bytes, or `"512KiB"`, `"4MiB"`, `"1GiB"`.
public enum SizeText {
    private static let units: [(suffix: String, bytes: Int)] = [
        ("B", 1), ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
        ("TiB", 1024 * 1024 * 1024 * 1024),
    ]

    /// The number of bytes `text` means, or nil when it is not a size (or does not fit).
    /// A leading `-` gives a negative size, for the caller to refuse.
    public static func parse(_ text: String) -> Int? {
        var rest = Substring(text)
        var sign = 1
        if rest.first == "-" {
            sign = -1
            rest = rest.dropFirst()
        }
        let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !number.isEmpty, number.first != ".", number.last != ".", let value = Double(number) else { return nil }
        let suffix = rest.dropFirst(number.count)
        let multiplier: Int
        if suffix.isEmpty {
            multiplier = 1
        } else if let unit = units.first(where: { $0.suffix == String(suffix) }) {
            multiplier = unit.bytes
        } else {
            return nil
        }
        let bytes = (value * Double(multiplier)).rounded()
        guard bytes < 0x1p62 else { return nil }
        return sign * Int(bytes)
    }

    /// The shortest exact spelling: 4194304 → `"4MiB"`, 1000 → `"1000B"`.
    public static func format(_ bytes: Int) -> String {
        if bytes < 0 { return "-" + format(-bytes) }
        for (suffix, size) in units.reversed() where size > 1 && bytes >= size && bytes % size == 0 {
            return "\(bytes / size)\(suffix)"
        }
        return "\(bytes)B"
    }
}
