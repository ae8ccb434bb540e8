/// Where each key of a TOML document is defined, found in its source text.
///
/// TOMLKit (toml++) gives a line and column for parse errors only: its values carry no
/// position, and its tables iterate in key order rather than file order. Messages such as
/// `widgethost.toml:14: budget.min = 90 …` need both, so this locator walks the text once
/// and notes, for every key path, the line it is defined on and the order it first appears in.
///
/// It reads only the shape of the document — `[table]` and `[[array]]` headers, `key =`,
/// the brackets of arrays and inline tables, and strings and comments so as to skip them — and
/// never interprets a value: TOMLKit has already parsed (and so validated) the document, and
/// its values are the ones used. On text TOMLKit refused (to place a syntax error) it stops
/// quietly wherever the text stops making sense.
struct KeyLocator {
    /// One step of a path: a key of a table, or an element of an array.
    enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    typealias Path = [Step]

    struct Location: Hashable, Sendable {
        /// The line a value starts on; a table's is its header's (or the first key that made it).
        var line: Int
        /// When the path first appeared, to put keys back in file order.
        var order: Int
    }

    private(set) var locations: [Path: Location] = [:]
    /// The table the next `key = value` line goes into.
    private(set) var currentTable: Path = []

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// Elements so far of each array of tables (`[[widget]]`): the last one is the one a
    /// `[widget.provider]` header or a key below refers to.
    private var arraysOfTables: [Path: Int] = [:]

    init(text: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
        locateDocument()
    }

    /// The keys of a dotted key as written (`a."b.c"` → `["a", "b.c"]`).
    static func keys(of written: String) -> [String] {
        var locator = KeyLocator(bytes: Array(written.utf8))
        return locator.dottedKey()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The path a header naming `keys` means here: through the last element of each array of tables.
    func resolved(_ keys: [String]) -> Path {
        var path: Path = []
        for key in keys {
            path.append(.key(key))
            if let count = arraysOfTables[path] { path.append(.index(count - 1)) }
        }
        return path
    }

    /// `widget[1].provider.every`: a path as messages name it (elements counted from 1).
    static func name(of path: Path) -> String {
        var name = ""
        for step in path {
            switch step {
            case .key(let key): name += (name.isEmpty ? "" : ".") + ConfigValue.key(key)
            case .index(let index): name += "[\(index + 1)]"
            }
        }
        return name
    }

    /// The line of `path`, or of the closest enclosing table that has one.
    func line(of path: Path) -> Int {
        var path = path
        while !path.isEmpty {
            if let location = locations[path] { return location.line }
            path.removeLast()
        }
        return 1
    }

    // MARK: - The document

    private mutating func locateDocument() {
        while true {
            skipWhitespaceAndComments()
            guard let byte = peek() else { return }
            let start = index
            if byte == UInt8(ascii: "[") {
                header()
            } else {
                keyValue(under: currentTable)
            }
            skipToEndOfLine()
            // Text that is not TOML (while placing a syntax error): go on with the next line.
            if index == start { index += 1 }
        }
    }

    /// `[a.b]` or `[[a.b]]`.
    private mutating func header() {
        let headerLine = line
        index += 1
        let isArray = peek() == UInt8(ascii: "[")
        if isArray { index += 1 }
        let keys = dottedKey()
        guard !keys.isEmpty else { return }
        var path: Path = []
        for (position, key) in keys.enumerated() {
            path.append(.key(key))
            let isLast = position == keys.count - 1
            if isArray, isLast {
                let count = arraysOfTables[path, default: 0]
                arraysOfTables[path] = count + 1
                note(path, line: headerLine)
                path.append(.index(count))
                note(path, line: headerLine)
            } else {
                // A table defined by its own header takes that header's line; one made
                // on the way (`a` of `[a.b]`) keeps the line it was first made on.
                note(path, line: headerLine, replacing: isLast)
                if let count = arraysOfTables[path] { path.append(.index(count - 1)) }
            }
        }
        currentTable = path
        while let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "#") { index += 1 }
    }

    /// `a.b = value`, under `table` (the current table, or an inline table).
    private mutating func keyValue(under table: Path) {
        let keyLine = line
        let keys = dottedKey()
        guard !keys.isEmpty else { return }
        skipSpaces()
        guard peek() == UInt8(ascii: "=") else { return }
        index += 1
        var path = table
        for key in keys.dropLast() {
            path.append(.key(key))
            note(path, line: keyLine)
        }
        path.append(.key(keys[keys.count - 1]))
        value(at: path)
    }

    // MARK: - Values

    private mutating func value(at path: Path) {
        skipSpaces()
        guard let byte = peek() else { return }
        note(path, line: line)
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            _ = string()
        case UInt8(ascii: "["):
            index += 1
            var element = 0
            while true {
                skipWhitespaceAndComments()
                guard let next = peek(), next != UInt8(ascii: "]") else { break }
                let start = index
                value(at: path + [.index(element)])
                element += 1
                skipWhitespaceAndComments()
                if peek() == UInt8(ascii: ",") { index += 1 } else if index == start { break }
            }
            if peek() == UInt8(ascii: "]") { index += 1 }
        case UInt8(ascii: "{"):
            index += 1
            while true {
                skipWhitespaceAndComments()
                guard let next = peek(), next != UInt8(ascii: "}") else { break }
                let start = index
                keyValue(under: path)
                skipWhitespaceAndComments()
                if peek() == UInt8(ascii: ",") { index += 1 } else if index == start { break }
            }
            if peek() == UInt8(ascii: "}") { index += 1 }
        default:
            // A number, boolean or date: it ends where the array, table or line does (a date
            // may hold a space, so spaces do not end it).
            while let next = peek(), !Self.scalarEnds.contains(next) { index += 1 }
        }
    }

    // MARK: - Keys and strings

    /// `a . "b.c" . 'd'` → `["a", "b.c", "d"]`; empty when no key starts here.
    private mutating func dottedKey() -> [String] {
        var keys: [String] = []
        while true {
            skipSpaces()
            guard let byte = peek() else { return keys }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                keys.append(string())
            } else {
                let start = index
                while let next = peek(), Self.isBareKeyByte(next) { index += 1 }
                guard index > start else { return keys }
                keys.append(String(decoding: bytes[start..<index], as: UTF8.self))
            }
            skipSpaces()
            guard peek() == UInt8(ascii: ".") else { return keys }
            index += 1
        }
    }

    /// Skips a basic, literal or multi-line string, counting its lines, and returns its
    /// content with the escapes a key might use decoded.
    private mutating func string() -> String {
        let quote = bytes[index]
        let multiline = index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote
        index += multiline ? 3 : 1
        var content: [UInt8] = []
        while let byte = peek() {
            if multiline {
                if byte == quote, index + 2 < bytes.count, bytes[index + 1] == quote, bytes[index + 2] == quote {
                    index += 3
                    // Up to two more quotes belong to the content (`"""x"""""`).
                    while peek() == quote { index += 1 }
                    break
                }
            } else if byte == quote {
                index += 1
                break
            } else if byte == 10 {
                break
            }
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\""), index + 1 < bytes.count {
                content.append(byte)
                content.append(bytes[index + 1])
                if bytes[index + 1] == 10 { line += 1 }
                index += 2
                continue
            }
            if byte == 10 { line += 1 }
            content.append(byte)
            index += 1
        }
        let text = String(decoding: content, as: UTF8.self)
        return quote == UInt8(ascii: "\"") ? Self.unescaped(text) : text
    }

    /// The escapes of a basic string (`\"`, `\\`, `\n`, `\u00E9`, …), for quoted keys.
    private static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let escape = scalars.next() else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch escape {
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "b": result += "\u{08}"
            case "f": result += "\u{0C}"
            case "e": result += "\u{1B}"
            case "u", "U":
                var hex = ""
                for _ in 0..<(escape == "u" ? 4 : 8) { if let digit = scalars.next() { hex.unicodeScalars.append(digit) } }
                if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { result.unicodeScalars.append(decoded) }
            default: result.unicodeScalars.append(escape)
            }
        }
        return result
    }

    private static let scalarEnds: Set<UInt8> = [
        UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"), 10, 13,
    ]

    private static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    // MARK: - Whitespace

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func note(_ path: Path, line: Int, replacing: Bool = false) {
        if let existing = locations[path] {
            if replacing { locations[path] = Location(line: line, order: existing.order) }
        } else {
            locations[path] = Location(line: line, order: locations.count)
        }
    }

    private mutating func skipSpaces() {
        while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    /// Spaces, newlines and comments, as between the elements of an array.
    private mutating func skipWhitespaceAndComments() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 13: index += 1
            case 10:
                line += 1
                index += 1
            case UInt8(ascii: "#"): skipComment()
            default: return
            }
        }
    }

    private mutating func skipComment() {
        while let byte = peek(), byte != 10 { index += 1 }
    }

    /// The rest of the line (a trailing comment) and its newline.
    private mutating func skipToEndOfLine() {
        while let byte = peek(), byte != 10 { index += 1 }
        if peek() == 10 {
            line += 1
            index += 1
        }
    }
}
