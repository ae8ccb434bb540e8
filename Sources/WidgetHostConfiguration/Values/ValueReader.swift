import Foundation
import WidgetHostProtocol

/// Typed reads of located values, shared by widgethost.toml and scenario files: each either
/// returns the value or fails with `file:line: key …` and what to write instead.
public struct ValueReader: Sendable {
    /// The file as the user named it.
    public let file: String

    public init(file: String) {
        self.file = file
    }

    public func error(_ kind: ConfigError.Kind, _ value: ConfigValue, _ message: String) -> ConfigError {
        ConfigError(kind: kind, file: file, line: value.line, message: message)
    }

    public func wrongType(_ value: ConfigValue, _ key: String, expected: String, hint: String? = nil) -> ConfigError {
        var message = "\(key): expected \(expected), got \(value.typeDescription)"
        if let hint { message += "; \(hint)" }
        return error(.wrongType, value, message)
    }

    // MARK: - Scalars

    public func integer(_ value: ConfigValue, _ key: String, atLeast minimum: Int, default: Int? = nil) throws(ConfigError)
        -> Int
    {
        guard let number = value.integer else {
            var hint: String?
            if let text = value.string, Int(text) != nil { hint = "write \(Self.written(key)) = \(text) without quotes" }
            if let float = value.float, float == float.rounded(), abs(float) < 1e15 {
                hint = "write \(Self.written(key)) = \(Int(float)) without a decimal point"
            }
            throw wrongType(value, key, expected: "an integer", hint: hint)
        }
        guard number >= minimum else {
            throw error(
                .outOfRange, value,
                "\(key) = \(number) is below \(minimum); set it to at least \(minimum)\(Self.defaultText(`default`.map(String.init)))")
        }
        return number
    }

    public func boolean(_ value: ConfigValue, _ key: String) throws(ConfigError) -> Bool {
        guard let flag = value.boolean else {
            let hint = value.string.flatMap { ["true", "false"].contains($0) ? "write \(Self.written(key)) = \($0) without quotes" : nil }
            throw wrongType(value, key, expected: "true or false", hint: hint)
        }
        return flag
    }

    /// A string; a date written without quotes gets them suggested.
    public func string(_ value: ConfigValue, _ key: String, example: String) throws(ConfigError) -> String {
        guard let text = value.string else {
            let example = if case .dateTime(let written, _) = value.content { ConfigValue.quoted(written) } else { example }
            throw wrongType(value, key, expected: "a string", hint: "write it in quotes, as in \(Self.written(key)) = \(example)")
        }
        return text
    }

    /// A duration: a string such as `"30s"` (`DurationText`), or a number of seconds.
    public func duration(_ value: ConfigValue, _ key: String, zero: Bool, default: TimeInterval? = nil) throws(ConfigError)
        -> TimeInterval
    {
        let seconds: TimeInterval
        switch value.content {
        case .integer(let number): seconds = Double(number)
        case .float(let number) where number.isFinite: seconds = number
        case .string(let text):
            guard let parsed = DurationText.parse(text) else {
                throw error(
                    .invalidValue, value,
                    "\(key) = \(value.tomlText) is not a duration; write a number and a unit (ms, s, m, h, d), as in \"30s\" or \"5m\"")
            }
            seconds = parsed
        default:
            throw wrongType(value, key, expected: "a duration such as \"30s\" or \"5m\"")
        }
        let defaultText = `default`.map { ConfigValue.quoted(DurationText.format($0)) }
        if seconds < 0 {
            throw error(
                .outOfRange, value,
                "\(key) = \(value.tomlText) is negative; use \(zero ? "0s" : "a duration above zero") or more\(Self.defaultText(defaultText))")
        }
        if seconds == 0, !zero {
            throw error(
                .outOfRange, value,
                "\(key) = \(value.tomlText) must be above zero\(defaultText.map { "; the default is \($0)" } ?? "")")
        }
        return seconds
    }

    /// A size: a number of bytes, or a string such as `"4MiB"` (`SizeText`). Always above zero.
    public func size(_ value: ConfigValue, _ key: String, default: Int? = nil) throws(ConfigError) -> Int {
        let bytes: Int
        switch value.content {
        case .integer(let number): bytes = number
        case .string(let text):
            guard let parsed = SizeText.parse(text) else {
                var hint = ""
                if let unit = ["KB": "KiB", "MB": "MiB", "GB": "GiB", "kB": "KiB", "K": "KiB", "M": "MiB", "G": "GiB"]
                    .first(where: { text.hasSuffix($0.key) })
                {
                    hint = " (sizes are 1024-based: \(unit.key) → \(unit.value))"
                }
                throw error(
                    .invalidValue, value,
                    "\(key) = \(value.tomlText) is not a size\(hint); write a number of bytes, or a number and KiB, MiB or GiB, as in \"30MiB\"")
            }
            bytes = parsed
        default:
            throw wrongType(value, key, expected: "a size such as \"4MiB\" or a number of bytes")
        }
        guard bytes > 0 else {
            let defaultText = `default`.map { "; the default is \(ConfigValue.quoted(SizeText.format($0)))" } ?? ""
            throw error(.outOfRange, value, "\(key) = \(value.tomlText) must be above zero\(defaultText)")
        }
        return bytes
    }

    /// A time of day (`TimeOfDay`), in seconds after midnight.
    public func timeOfDay(_ value: ConfigValue, _ key: String) throws(ConfigError) -> TimeInterval {
        let text = try string(value, key, example: "\"08:00\"")
        guard let seconds = TimeOfDay.parse(text) else {
            throw error(
                .invalidValue, value,
                "\(key) = \(value.tomlText) is not a time of day; write \"HH:MM\" from \"00:00\" to \"24:00\", as in \"08:00\"")
        }
        return seconds
    }

    /// An instant, written as an RFC 3339 string.
    public func instant(_ value: ConfigValue, _ key: String, example: String) throws(ConfigError) -> Date {
        let text = try string(value, key, example: ConfigValue.quoted(example))
        guard let instant = RFC3339.parse(text) else {
            throw error(
                .invalidValue, value,
                "\(key) = \(value.tomlText) is not an RFC 3339 date; write it as \(ConfigValue.quoted(example))")
        }
        return instant
    }

    // MARK: - Tables and arrays

    public func table(_ value: ConfigValue, _ key: String, hint: String? = nil) throws(ConfigError) -> ConfigTable {
        guard let table = value.table else { throw wrongType(value, key, expected: "a table", hint: hint) }
        return table
    }

    /// Refuses keys a table does not have, naming the known ones (and the likely one).
    public func onlyKeys(_ table: ConfigTable, _ known: [String], in place: String) throws(ConfigError) {
        for (key, value) in table.entries where !known.contains(key) {
            let list = "nown keys: \(known.joined(separator: ", "))"
            let rest = Suggestion.closest(to: key, among: known).map { "did you mean \($0)? K\(list)" } ?? "k\(list)"
            throw error(.unknownKey, value, "unknown key \(ConfigValue.key(key)) in \(place); \(rest)")
        }
    }

    /// `[[widget]]`: an array of tables (absent is empty).
    public func arrayOfTables(_ value: ConfigValue?, _ key: String) throws(ConfigError) -> [ConfigValue] {
        guard let value else { return [] }
        guard let items = value.array, items.allSatisfy({ $0.table != nil }) else {
            throw wrongType(value, key, expected: "[[\(key)]] tables")
        }
        return items
    }

    /// `reloads = [ { … }, { … } ]` (absent is empty).
    public func inlineTables(_ value: ConfigValue?, _ key: String) throws(ConfigError) -> [ConfigValue] {
        guard let value else { return [] }
        guard let items = value.array else {
            throw wrongType(
                value, key, expected: "a list of tables", hint: "write \(Self.written(key)) = [ { … } ]")
        }
        for item in items where item.table == nil {
            throw wrongType(item, key, expected: "{ … } tables in the list")
        }
        return items
    }

    // MARK: - Wording

    /// The key as it would be written where it stands: `budget.min`, or `provider.every` for
    /// `widget[1].provider.every` (an element of an array cannot be named by a dotted key).
    static func written(_ key: String) -> String {
        guard let bracket = key.lastIndex(of: "]") else { return key }
        let rest = key[key.index(after: bracket)...]
        return rest.hasPrefix(".") ? String(rest.dropFirst()) : key
    }

    private static func defaultText(_ text: String?) -> String {
        text.map { " (the default is \($0))" } ?? ""
    }
}
