import Foundation
import WidgetHostDaemon

/// Typed reads of scenario values, each failing with `file:line: key …` and the fix.
struct ScenarioValues {
    let file: String

    func error(_ kind: ConfigError.Kind, _ value: TOMLValue, _ message: String) -> ConfigError {
        ConfigError(kind: kind, file: file, line: value.line, message: message)
    }

    /// Refuses keys the scenario format does not have, naming the known ones.
    func onlyKeys(_ table: TOMLTable, _ known: [String], in place: String, line: Int) throws(ConfigError) {
        for (key, value) in table.entries where !known.contains(key) {
            var message = "unknown key \(TOMLValue.key(key)) in \(place); known keys: \(known.joined(separator: ", "))"
            if let close = known.first(where: { Self.close(key, $0) }) { message = "unknown key \(TOMLValue.key(key)) in \(place); did you mean \(close)? Known keys: \(known.joined(separator: ", "))" }
            throw error(.unknownKey, value, message)
        }
    }

    /// A likely typo: same letters ignoring case, `-` for `_`, or one edit apart.
    private static func close(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().replacingOccurrences(of: "-", with: "_"))
        let y = Array(b)
        if x == y { return true }
        guard abs(x.count - y.count) <= 1 else { return false }
        var i = 0
        var j = 0
        var edits = 0
        while i < x.count, j < y.count {
            if x[i] == y[j] {
                i += 1
                j += 1
                continue
            }
            edits += 1
            if x.count > y.count { i += 1 } else if x.count < y.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }

    func table(_ value: TOMLValue, _ key: String) throws(ConfigError) -> TOMLTable {
        guard let table = value.table else {
            throw error(.wrongType, value, "\(key): expected a table, got \(value.typeDescription)")
        }
        return table
    }

    /// `[[widget]]`: an array of tables (absent is empty).
    func arrayOfTables(_ value: TOMLValue?, _ key: String) throws(ConfigError) -> [TOMLValue] {
        guard let value else { return [] }
        guard let items = value.array, items.allSatisfy({ $0.table != nil }) else {
            throw error(.wrongType, value, "\(key): expected [[\(key)]] tables, got \(value.typeDescription)")
        }
        return items
    }

    /// `reloads = [ { … }, { … } ]` (absent is empty).
    func inlineTables(_ value: TOMLValue?, _ key: String) throws(ConfigError) -> [TOMLValue] {
        guard let value else { return [] }
        guard let items = value.array else {
            throw error(.wrongType, value, "\(key): expected a list of tables, as in \(key.split(separator: ".").last!) = [ { … } ], got \(value.typeDescription)")
        }
        for item in items where item.table == nil {
            throw error(.wrongType, item, "\(key): expected { … } tables in the list, got \(item.typeDescription)")
        }
        return items
    }

    func string(_ value: TOMLValue, _ key: String, example: String) throws(ConfigError) -> String {
        guard let text = value.string else {
            throw error(.wrongType, value, "\(key): expected a string, got \(value.typeDescription); write \(key.split(separator: ".").last!) = \(example)")
        }
        return text
    }

    func integer(_ value: TOMLValue, _ key: String, atLeast minimum: Int) throws(ConfigError) -> Int {
        guard let number = value.integer else {
            throw error(.wrongType, value, "\(key): expected an integer, got \(value.typeDescription) \(value.tomlText)")
        }
        guard number >= minimum else {
            throw error(.outOfRange, value, "\(key) = \(number) is below \(minimum); use \(minimum) or more")
        }
        return number
    }

    /// `"30s"`, `"10m"`, `"4h"`, `"7d"` (or a number of seconds).
    func duration(_ value: TOMLValue, _ key: String, positive: Bool) throws(ConfigError) -> TimeInterval {
        let seconds: TimeInterval
        if let number = value.number {
            seconds = number
        } else if let text = value.string, let parsed = DurationText.parse(text) {
            seconds = parsed
        } else {
            throw error(
                .invalidValue, value,
                "\(key) = \(value.tomlText) is not a duration; write a number and a unit (ms, s, m, h, d), as in \"15m\" or \"7d\"")
        }
        if seconds < 0 || (positive && seconds == 0) {
            throw error(.outOfRange, value, "\(key) = \(value.tomlText) must be \(positive ? "above zero" : "zero or more")")
        }
        return seconds
    }

    func size(_ value: TOMLValue, _ key: String) throws(ConfigError) -> Int {
        if let number = value.integer, number > 0 { return number }
        if let text = value.string, let bytes = SizeText.parse(text), bytes > 0 { return bytes }
        throw error(.invalidValue, value, "\(key) = \(value.tomlText) is not a size; write a number of bytes or \"12MiB\"")
    }

    /// `"08:00"` or `"08:00:30"` → seconds after midnight; `"24:00"` is the end of the day.
    func timeOfDay(_ value: TOMLValue, _ key: String) throws(ConfigError) -> TimeInterval {
        let text = try string(value, key, example: "\"08:00\"")
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = parts.map { part in part.count == 2 && part.allSatisfy(\.isASCII) ? Int(part) : nil }
        guard (2...3).contains(parts.count), numbers.allSatisfy({ $0 != nil }) else {
            throw error(.invalidValue, value, "\(key) = \(value.tomlText) is not a time of day; write \"HH:MM\", as in \"08:00\"")
        }
        let hours = numbers[0]!
        let minutes = numbers[1]!
        let seconds = parts.count == 3 ? numbers[2]! : 0
        let total = hours * 3600 + minutes * 60 + seconds
        guard minutes < 60, seconds < 60, total <= 86_400 else {
            throw error(.outOfRange, value, "\(key) = \(value.tomlText) is not a time of day between \"00:00\" and \"24:00\"")
        }
        return TimeInterval(total)
    }

    /// `per_day = [5, 10]` (or one number).
    func countRange(_ value: TOMLValue, _ key: String) throws(ConfigError) -> ClosedRange<Int> {
        if let number = value.integer, number >= 1 { return number...number }
        if let pair = value.array, pair.count == 2, let low = pair[0].integer, let high = pair[1].integer,
            low >= 1, low <= high
        {
            return low...high
        }
        throw error(.invalidValue, value, "\(key) = \(value.tomlText) must be a count or a range [low, high] with 1 ≤ low ≤ high, as in per_day = [5, 10]")
    }
}
