/// One value of a TOML document, with where it was written: every value knows its line
/// (and column), so that a reader can say `widgethost.toml:14: …` about it later.
public struct TOMLValue: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case array([TOMLValue])
        case table(TOMLTable)
    }

    public var content: Content
    /// 1-based line where the value starts (for a table: its header, or the first key that created it).
    public var line: Int
    /// 1-based column (in Unicode scalars) where the value starts.
    public var column: Int

    public init(_ content: Content, line: Int, column: Int = 1) {
        self.content = content
        self.line = line
        self.column = column
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

    public var array: [TOMLValue]? {
        if case .array(let value) = content { return value }
        return nil
    }

    public var table: TOMLTable? {
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
        }
    }

    /// The value written back as TOML (`40`, `"5m"`, `[1, 2]`), for messages that quote it.
    public var tomlText: String {
        switch content {
        case .string(let value): return TOMLValue.quoted(value)
        case .integer(let value): return String(value)
        case .float(let value):
            if value.isNaN { return "nan" }
            if value.isInfinite { return value < 0 ? "-inf" : "inf" }
            return String(value)
        case .boolean(let value): return value ? "true" : "false"
        case .array(let values): return "[" + values.map(\.tomlText).joined(separator: ", ") + "]"
        case .table(let table):
            if table.isEmpty { return "{}" }
            let pairs = table.entries.map { "\(TOMLValue.key($0.key)) = \($0.value.tomlText)" }
            return "{ " + pairs.joined(separator: ", ") + " }"
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
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy(TOMLValue.isBareKeyScalar)
        return bare ? name : quoted(name)
    }

    static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }
}

/// A TOML table: its keys in the order they were defined, each with a located value.
public struct TOMLTable: Sendable, Hashable {
    /// Keys in definition order (iteration never depends on hashing).
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? { values[key] }

    /// The value at a path of keys (`["budget", "min"]`), through nested tables.
    public subscript(path path: [String]) -> TOMLValue? {
        guard let first = path.first, let value = values[first] else { return nil }
        if path.count == 1 { return value }
        return value.table?[path: Array(path.dropFirst())]
    }

    public var entries: [(key: String, value: TOMLValue)] { keys.map { ($0, values[$0]!) } }
    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Adds or replaces `key` (a new key goes last).
    public mutating func set(_ key: String, _ value: TOMLValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }
}

/// A syntax error, located: `scenario.toml:3:9: message`.
public struct TOMLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// A parsed TOML file. `TOMLDocument(parsing:file:)` reads the subset widgethost uses
/// (TOML 1.0 without dates and times, plus TOML 1.1's multi-line inline tables) and
/// rejects everything else with `file:line:column: message`.
public struct TOMLDocument: Sendable, Hashable {
    /// The name used in messages (the path as the user gave it).
    public var file: String
    public var root: TOMLTable

    public init(parsing text: String, file: String = "<input>") throws(TOMLError) {
        self.file = file
        var parser = TOMLParser(text: text, file: file)
        root = try parser.parseDocument()
    }

    public subscript(key: String) -> TOMLValue? { root[key] }

    /// `file:line` of a value, the prefix of a semantic error about it.
    public func location(of value: TOMLValue) -> String { "\(file):\(value.line)" }
}
