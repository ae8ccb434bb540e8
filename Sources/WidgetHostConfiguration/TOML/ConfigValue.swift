/// One value of a TOML document with the line it was written on, so that a reader can say
/// `widgethost.toml:14: …` about it later. Plain Sendable values: TOMLKit's tree is converted
/// into these as soon as a document is parsed (`ConfigDocument`).
public struct ConfigValue: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case array([ConfigValue])
        case table(ConfigTable)
        /// A TOML date, time or date-time, as RFC 3339 text. widgethost's files quote instants
        /// as strings, so readers refuse this and suggest the quotes.
        case dateTime(String, DateTimeKind)
    }

    public enum DateTimeKind: String, Sendable, Hashable {
        case offsetDateTime = "offset date-time"
        case localDateTime = "local date-time"
        case localDate = "local date"
        case localTime = "local time"
    }

    public var content: Content
    /// 1-based line where the value starts (a table: its header, or the key that created it).
    public var line: Int

    public init(_ content: Content, line: Int) {
        self.content = content
        self.line = line
    }

    public var string: String? {
        if case .string(let value) = content { return value }
        return nil
    }

    public var integer: Int? {
        if case .integer(let value) = content { return value }
        return nil
    }

    /// A float, or an integer read as a float.
    public var number: Double? {
        switch content {
        case .float(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    public var float: Double? {
        if case .float(let value) = content { return value }
        return nil
    }

    public var boolean: Bool? {
        if case .boolean(let value) = content { return value }
        return nil
    }

    public var array: [ConfigValue]? {
        if case .array(let value) = content { return value }
        return nil
    }

    public var table: ConfigTable? {
        if case .table(let value) = content { return value }
        return nil
    }

    /// "a string", "an integer", … for messages such as `expected an integer, got a string`.
    public var typeDescription: String {
        switch content {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .array: "an array"
        case .table: "a table"
        case .dateTime(_, let kind): (kind == .offsetDateTime ? "an " : "a ") + kind.rawValue
        }
    }

    /// The value written back as TOML (`40`, `"5m"`, `[1, 2]`), for messages that quote it.
    public var tomlText: String {
        switch content {
        case .string(let value): return ConfigValue.quoted(value)
        case .integer(let value): return String(value)
        case .float(let value):
            if value.isNaN { return "nan" }
            if value.isInfinite { return value < 0 ? "-inf" : "inf" }
            return String(value)
        case .boolean(let value): return value ? "true" : "false"
        case .array(let values): return "[" + values.map(\.tomlText).joined(separator: ", ") + "]"
        case .table(let table):
            if table.isEmpty { return "{}" }
            let pairs = table.entries.map { "\(ConfigValue.key($0.key)) = \($0.value.tomlText)" }
            return "{ " + pairs.joined(separator: ", ") + " }"
        case .dateTime(let text, _): return text
        }
    }

    /// A TOML basic string literal for `text`.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A key as TOML writes it: bare when it can be, quoted otherwise.
    public static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy(isBareKeyScalar)
        return bare ? name : quoted(name)
    }

    static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }
}

/// A TOML table: its keys in the order the file defines them, each with a located value.
public struct ConfigTable: Sendable, Hashable {
    /// Keys in definition order (iteration never depends on hashing).
    public private(set) var keys: [String] = []
    private var values: [String: ConfigValue] = [:]

    public init() {}

    public subscript(key: String) -> ConfigValue? { values[key] }

    /// The value at a path of keys (`["budget", "min"]`), through nested tables.
    public subscript(path path: [String]) -> ConfigValue? {
        guard let first = path.first, let value = values[first] else { return nil }
        if path.count == 1 { return value }
        return value.table?[path: Array(path.dropFirst())]
    }

    public var entries: [(key: String, value: ConfigValue)] { keys.map { ($0, values[$0]!) } }
    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Adds or replaces `key` (a new key goes last).
    public mutating func set(_ key: String, _ value: ConfigValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }
}
