import Foundation
import TOMLKit

/// A parsed TOML file: TOMLKit (toml++, TOML 1.0) reads it, and its tree is converted at once
/// into `ConfigValue`s — Sendable, in file order, each with its line (`KeyLocator`).
public struct ConfigDocument: Sendable, Hashable {
    /// The name used in messages (the path as the user gave it).
    public var file: String
    public var root: ConfigTable

    /// Parses `text`; invalid TOML is refused with `file:line: what is wrong`.
    public init(parsing text: String, file: String = "<input>") throws(ConfigError) {
        self.file = file
        // TOMLKit hands toml++ a C string, which would end at a NUL and read half the file.
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].count(where: { $0 == 10 }) + 1
            throw ConfigError(kind: .syntax, file: file, line: line, message: "a NUL character is not allowed in TOML; remove it")
        }
        let parsed: TOMLTable
        do {
            parsed = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ParseErrorMessage.configError(error, text: text, file: file)
        } catch {
            throw ConfigError(kind: .syntax, file: file, message: "\(error)")
        }
        let locator = KeyLocator(text: text)
        root = Self.table(parsed, at: [], locator)
        // TOMLKit 0.6.0 never frees a parsed tree (TOMLTable has no deinit); clearing the root
        // frees its nodes. What stays is TOMLKit's copy of each table's key list, ~2 KiB for
        // widgethost.toml (10.8 KiB without the clear): fine for files read once at start.
        parsed.clear()
    }

    public subscript(key: String) -> ConfigValue? { root[key] }

    // MARK: - From TOMLKit's tree

    private static func table(_ table: TOMLTable, at path: KeyLocator.Path, _ locator: KeyLocator) -> ConfigTable {
        // toml++ keeps a table's keys sorted; the file's order comes from the locator.
        let entries = table.keys.compactMap { key -> (key: String, value: ConfigValue, order: Int)? in
            guard let value = table[key]?.tomlValue else { return nil }
            let keyPath = path + [.key(key)]
            return (key, self.value(value, at: keyPath, locator), locator.locations[keyPath]?.order ?? .max)
        }
        var result = ConfigTable()
        for entry in entries.sorted(by: { ($0.order, $0.key) < ($1.order, $1.key) }) {
            result.set(entry.key, entry.value)
        }
        return result
    }

    private static func value(_ value: TOMLValue, at path: KeyLocator.Path, _ locator: KeyLocator) -> ConfigValue {
        let content: ConfigValue.Content
        switch value.type {
        case .table: content = .table(table(value.table!, at: path, locator))
        case .array:
            content = .array(value.array!.enumerated().map { index, element in
                self.value(element.tomlValue, at: path + [.index(index)], locator)
            })
        case .string: content = .string(value.string!)
        case .int: content = .integer(value.int!)
        case .double: content = .float(value.double!)
        case .bool: content = .boolean(value.bool!)
        case .date: content = .dateTime(text(value.date!), .localDate)
        case .time: content = .dateTime(text(value.time!), .localTime)
        case .dateTime:
            let dateTime = value.dateTime!
            var written = text(dateTime.date) + "T" + text(dateTime.time)
            if let offset = dateTime.offset {
                written += offset.offset == 0 ? "Z" : text(offset)
            }
            content = .dateTime(written, dateTime.offset == nil ? .localDateTime : .offsetDateTime)
        }
        return ConfigValue(content, line: locator.line(of: path))
    }

    private static func text(_ date: TOMLDate) -> String {
        String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }

    private static func text(_ time: TOMLTime) -> String {
        var text = String(format: "%02d:%02d:%02d", time.hour, time.minute, time.second)
        if time.nanoSecond > 0 {
            text += "." + String(format: "%09d", time.nanoSecond).replacingOccurrences(of: "0+$", with: "", options: .regularExpression)
        }
        return text
    }

    private static func text(_ offset: TOMLTimeOffset) -> String {
        let minutes = abs(offset.offset)
        return (offset.offset < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
