/// A recursive-descent TOML reader over Unicode scalars, tracking line and column.
struct TOMLParser {
    private let scalars: [Unicode.Scalar]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(text: String, file: String) {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        self.scalars = scalars
        self.file = file
    }

    // MARK: - Building the tree

    /// A table while the document is being read. Tables are reference types here so that
    /// a header can make a nested table "current"; the result is converted to values.
    private final class TableNode {
        enum Origin {
            /// Created as a prefix of a header (`[a.b]` creates `a`); may still be defined once.
            case implicit
            /// Defined by a `[header]`.
            case header
            /// Created by a dotted key (`a.b = 1` creates `a`).
            case dotted
            /// One element of an array of tables (`[[a]]`).
            case arrayElement
        }

        var origin: Origin
        /// The keys from the root (or from the inline table) to this table, for messages.
        var path: [String]
        var line: Int
        var column: Int
        var order: [String] = []
        var entries: [String: Entry] = [:]

        init(origin: Origin, path: [String], line: Int, column: Int) {
            self.origin = origin
            self.path = path
            self.line = line
            self.column = column
        }

        func add(_ key: String, _ entry: Entry) {
            order.append(key)
            entries[key] = entry
        }

        var value: TOMLValue {
            var table = TOMLTable()
            for key in order {
                switch entries[key]! {
                case .value(let value): table.set(key, value)
                case .table(let node): table.set(key, node.value)
                case .tables(let nodes, let line, let column):
                    table.set(key, TOMLValue(.array(nodes.map(\.value)), line: line, column: column))
                }
            }
            return TOMLValue(.table(table), line: line, column: column)
        }
    }

    private enum Entry {
        /// A leaf, a static array or an inline table: never extended afterwards.
        case value(TOMLValue)
        case table(TableNode)
        /// An array of tables, appended to by each `[[header]]`.
        case tables([TableNode], line: Int, column: Int)

        var line: Int {
            switch self {
            case .value(let value): value.line
            case .table(let node): node.line
            case .tables(_, let line, _): line
            }
        }

        var what: String {
            switch self {
            case .value(let value):
                if case .table = value.content { return "an inline table" }
                return value.typeDescription
            case .table: return "a table"
            case .tables: return "an array of tables"
            }
        }
    }

    private struct KeyPart {
        var name: String
        var line: Int
        var column: Int
    }

    // MARK: - Document

    mutating func parseDocument() throws(TOMLError) -> TOMLTable {
        let root = TableNode(origin: .header, path: [], line: 1, column: 1)
        var current = root
        while true {
            skipSpaces()
            guard let scalar = peek() else { break }
            switch scalar {
            case "#":
                try skipComment()
            case "\n", "\r":
                try skipNewline()
            case "[":
                current = try parseHeader(root: root)
                try expectLineEnd(after: "the table header")
            default:
                try parseKeyValue(into: current)
                try expectLineEnd(after: "a value")
            }
        }
        return root.value.table!
    }

    private mutating func parseHeader(root: TableNode) throws(TOMLError) -> TableNode {
        let startLine = line
        let startColumn = column
        advance()
        let isArray = peek() == "["
        if isArray { advance() }
        skipSpaces()
        let path = try parseKey()
        skipSpaces()
        if isArray {
            guard peek() == "]", peek(1) == "]" else {
                throw error("expected \"]]\" to close the array-of-tables header [[\(dotted(path))]]")
            }
            advance(2)
        } else {
            guard peek() == "]" else { throw error("expected \"]\" to close the table header [\(dotted(path))]") }
            advance()
        }

        var table = root
        for (position, part) in path.enumerated().dropLast() {
            let name = dotted(path.prefix(position + 1))
            switch table.entries[part.name] {
            case nil:
                let node = TableNode(
                    origin: .implicit, path: path.prefix(position + 1).map(\.name), line: startLine, column: startColumn)
                table.add(part.name, .table(node))
                table = node
            case .table(let node):
                table = node
            case .tables(let nodes, _, _):
                table = nodes.last!
            case .value(let value)?:
                throw error(
                    "\(name) is already \(Entry.value(value).what) (line \(value.line)), so it cannot hold a table",
                    line: part.line, column: part.column)
            }
        }

        let last = path.last!
        let name = dotted(path)
        let existing = table.entries[last.name]
        if isArray {
            let node = TableNode(origin: .arrayElement, path: path.map(\.name), line: startLine, column: startColumn)
            switch existing {
            case nil:
                table.add(last.name, .tables([node], line: startLine, column: startColumn))
            case .tables(let nodes, let line, let column):
                table.entries[last.name] = .tables(nodes + [node], line: line, column: column)
            case .value(let value)? where value.array != nil:
                throw error(
                    "\(name) is a static array (line \(value.line)); [[\(name)]] cannot append to it",
                    line: startLine, column: startColumn)
            case let entry?:
                throw error(
                    "\(name) is already \(entry.what) (line \(entry.line)); [[\(name)]] needs an array of tables",
                    line: startLine, column: startColumn)
            }
            return node
        }
        switch existing {
        case nil:
            let node = TableNode(origin: .header, path: path.map(\.name), line: startLine, column: startColumn)
            table.add(last.name, .table(node))
            return node
        case .table(let node) where node.origin == .implicit:
            node.origin = .header
            node.line = startLine
            node.column = startColumn
            return node
        case .table(let node) where node.origin == .dotted:
            throw error(
                "table [\(name)] was already defined by dotted keys (line \(node.line)); define it in one place",
                line: startLine, column: startColumn)
        case .table(let node):
            throw error(
                "table [\(name)] is defined twice (first at line \(node.line)); merge the two",
                line: startLine, column: startColumn)
        case .tables(_, let line, _)?:
            throw error(
                "\(name) is an array of tables (line \(line)); write [[\(name)]] to add an element",
                line: startLine, column: startColumn)
        case .value(let value)?:
            throw error(
                "\(name) is already \(Entry.value(value).what) (line \(value.line)); a key is defined once",
                line: startLine, column: startColumn)
        }
    }

    /// `key = value`, with a dotted key creating the tables on its way.
    private mutating func parseKeyValue(into table: TableNode) throws(TOMLError) {
        let path = try parseKey()
        skipSpaces()
        guard peek() == "=" else {
            if let scalar = peek(), scalar != "\n", scalar != "\r", scalar != "#" {
                throw error("expected \"=\" after the key \(dotted(path)), found \(describe(scalar))")
            }
            throw error("expected \"=\" and a value after the key \(dotted(path))")
        }
        advance()
        skipSpaces()
        let value = try parseValue()
        try insert(value, at: path, into: table)
    }

    private func insert(_ value: TOMLValue, at path: [KeyPart], into root: TableNode) throws(TOMLError) {
        var table = root
        let full = root.path.map(TOMLValue.key)
        for (position, part) in path.enumerated().dropLast() {
            let name = (full + path.prefix(position + 1).map { TOMLValue.key($0.name) }).joined(separator: ".")
            switch table.entries[part.name] {
            case nil:
                let node = TableNode(
                    origin: .dotted, path: table.path + [part.name], line: part.line, column: part.column)
                table.add(part.name, .table(node))
                table = node
            case .table(let node) where node.origin == .dotted || node.origin == .implicit:
                node.origin = .dotted
                table = node
            case .table(let node):
                throw error(
                    "\(name) is a table defined at line \(node.line); put this key under [\(name)] instead of using a dotted key",
                    line: part.line, column: part.column)
            case let entry?:
                throw error(
                    "\(name) is already \(entry.what) (line \(entry.line)), so it cannot hold keys",
                    line: part.line, column: part.column)
            }
        }
        let last = path.last!
        if let entry = table.entries[last.name] {
            let name = (full + path.map { TOMLValue.key($0.name) }).joined(separator: ".")
            throw error(
                "duplicate key \(name) (first defined at line \(entry.line)); a key is defined once",
                line: last.line, column: last.column)
        }
        table.add(last.name, .value(value))
    }

    // MARK: - Keys

    private mutating func parseKey() throws(TOMLError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            let partLine = line
            let partColumn = column
            let name: String
            switch peek() {
            case "\""?:
                if peek(1) == "\"", peek(2) == "\"" { throw error("a key cannot be a multi-line string") }
                name = try parseBasicString()
            case "'"?:
                if peek(1) == "'", peek(2) == "'" { throw error("a key cannot be a multi-line string") }
                name = try parseLiteralString()
            case let scalar? where TOMLValue.isBareKeyScalar(scalar):
                var bare = ""
                while let next = peek(), TOMLValue.isBareKeyScalar(next) {
                    bare.unicodeScalars.append(next)
                    advance()
                }
                name = bare
            case let scalar?:
                throw error(
                    "expected a key, found \(describe(scalar)); bare keys use A-Z a-z 0-9 _ -, quote any other key")
            case nil:
                throw error("expected a key, found the end of the file")
            }
            parts.append(KeyPart(name: name, line: partLine, column: partColumn))
            skipSpaces()
            guard peek() == "." else { return parts }
            advance()
            skipSpaces()
        }
    }

    private func dotted(_ parts: some Collection<KeyPart>) -> String {
        parts.map { TOMLValue.key($0.name) }.joined(separator: ".")
    }

    // MARK: - Values

    private mutating func parseValue() throws(TOMLError) -> TOMLValue {
        let startLine = line
        let startColumn = column
        func located(_ content: TOMLValue.Content) -> TOMLValue {
            TOMLValue(content, line: startLine, column: startColumn)
        }
        switch peek() {
        case "\""?:
            if peek(1) == "\"", peek(2) == "\"" { return located(.string(try parseMultilineBasicString())) }
            return located(.string(try parseBasicString()))
        case "'"?:
            if peek(1) == "'", peek(2) == "'" { return located(.string(try parseMultilineLiteralString())) }
            return located(.string(try parseLiteralString()))
        case "["?:
            return located(.array(try parseArray()))
        case "{"?:
            return try parseInlineTable()
        case nil, "\n"?, "\r"?, "#"?:
            throw error("expected a value after \"=\"")
        default:
            let token = readToken()
            switch token {
            case "true": return located(.boolean(true))
            case "false": return located(.boolean(false))
            case "inf", "+inf": return located(.float(.infinity))
            case "-inf": return located(.float(-.infinity))
            case "nan", "+nan", "-nan": return located(.float(.nan))
            default: break
            }
            guard let first = token.unicodeScalars.first, first == "+" || first == "-" || ("0"..."9").contains(first)
            else {
                if token.isEmpty, let scalar = peek() {
                    throw error("expected a value, found \(describe(scalar))", line: startLine, column: startColumn)
                }
                throw error(
                    "\(token) is not a value; quote strings (\(TOMLValue.quoted(token))), and booleans are true or false",
                    line: startLine, column: startColumn)
            }
            if let date = dateTimeKind(token) {
                throw error(
                    "\(date) \(token) is not supported; quote dates as strings: \(TOMLValue.quoted(token))",
                    line: startLine, column: startColumn)
            }
            return located(try number(token, line: startLine, column: startColumn))
        }
    }

    /// Reads a bare token (a number, a boolean, a date, a mistake) up to a delimiter.
    private mutating func readToken() -> String {
        var token = ""
        while let scalar = peek() {
            switch scalar {
            case " ", "\t", "\n", "\r", ",", "]", "}", "#", "=", "[", "{", "\"", "'":
                // A date-time may use a space between date and time: keep reading it.
                if scalar == " ", isDate(token), let next = peek(1), ("0"..."9").contains(next) {
                    token.unicodeScalars.append(scalar)
                    advance()
                    continue
                }
                return token
            default:
                token.unicodeScalars.append(scalar)
                advance()
            }
        }
        return token
    }

    private func isDate(_ token: String) -> Bool {
        let scalars = Array(token.unicodeScalars)
        guard scalars.count == 10 else { return false }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9]
        return digits.allSatisfy { ("0"..."9").contains(scalars[$0]) } && scalars[4] == "-" && scalars[7] == "-"
    }

    /// "offset date-time", "local date-time", "local date", "local time", or nil.
    private func dateTimeKind(_ token: String) -> String? {
        let scalars = Array(token.unicodeScalars)
        func digitsAt(_ positions: [Int]) -> Bool {
            positions.allSatisfy { $0 < scalars.count && ("0"..."9").contains(scalars[$0]) }
        }
        if scalars.count >= 8, digitsAt([0, 1, 3, 4, 6, 7]), scalars[2] == ":", scalars[5] == ":" {
            return "local time"
        }
        guard scalars.count >= 10, digitsAt([0, 1, 2, 3, 5, 6, 8, 9]), scalars[4] == "-", scalars[7] == "-" else {
            return nil
        }
        if scalars.count == 10 { return "local date" }
        let time = String(String.UnicodeScalarView(scalars[11...]))
        if time.hasSuffix("Z") || time.hasSuffix("z") || time.dropFirst(8).contains(where: { $0 == "+" || $0 == "-" }) {
            return "offset date-time"
        }
        return "local date-time"
    }

    private func number(_ token: String, line: Int, column: Int) throws(TOMLError) -> TOMLValue.Content {
        func fail(_ message: String) -> TOMLError { error(message, line: line, column: column) }
        var body = Substring(token)
        var sign = ""
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? "-" : ""
            body = body.dropFirst()
        }
        let radixes: [(String, Int, String)] = [("0x", 16, "hexadecimal"), ("0o", 8, "octal"), ("0b", 2, "binary")]
        for (prefix, radix, name) in radixes where body.hasPrefix(prefix) {
            guard token.first != "+", token.first != "-" else {
                throw fail("\(token): a \(name) integer cannot have a sign")
            }
            let digits = body.dropFirst(2)
            let isDigit = { (character: Character) in character.asciiDigitValue.map { $0 < radix } ?? false }
            guard let clean = withoutUnderscores(digits, isDigit: isDigit), !clean.isEmpty, clean.allSatisfy(isDigit)
            else { throw fail("\(token) is not a valid \(name) integer") }
            guard let value = Int(clean, radix: radix) else {
                throw fail("\(token) does not fit in a 64-bit integer")
            }
            return .integer(value)
        }
        guard let clean = withoutUnderscores(body, isDigit: \.isASCIIDigit) else {
            throw fail("\(token): \"_\" must stand between two digits")
        }
        let isFloat = clean.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        if !isFloat {
            guard !clean.isEmpty, clean.allSatisfy(\.isASCIIDigit) else {
                throw fail("\(token) is not a number; quote strings (\(TOMLValue.quoted(token)))")
            }
            if clean.count > 1, clean.first == "0" {
                throw fail("\(token): leading zeros are not allowed in an integer")
            }
            guard let value = Int(sign + clean) else { throw fail("\(token) does not fit in a 64-bit integer") }
            return .integer(value)
        }
        // [integer part] [. fraction] [e exponent], every part made of digits.
        var rest = Substring(clean)
        let integerPart = rest.prefix(while: \.isASCIIDigit)
        rest = rest.dropFirst(integerPart.count)
        var valid = !integerPart.isEmpty && !(integerPart.count > 1 && integerPart.first == "0")
        if rest.first == "." {
            rest = rest.dropFirst()
            let fraction = rest.prefix(while: \.isASCIIDigit)
            valid = valid && !fraction.isEmpty
            rest = rest.dropFirst(fraction.count)
        }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
            let exponent = rest.prefix(while: \.isASCIIDigit)
            valid = valid && !exponent.isEmpty
            rest = rest.dropFirst(exponent.count)
        }
        guard valid, rest.isEmpty, let value = Double(sign + clean) else {
            throw fail("\(token) is not a valid float; write digits on both sides of the point, as in 0.5 or 1e-3")
        }
        return .float(value)
    }

    /// The digits without `_`, or nil when an underscore is not between two digits.
    private func withoutUnderscores(_ text: Substring, isDigit: (Character) -> Bool) -> String? {
        let characters = Array(text)
        var result = ""
        for (offset, character) in characters.enumerated() {
            if character == "_" {
                guard offset > 0, offset + 1 < characters.count, isDigit(characters[offset - 1]),
                    isDigit(characters[offset + 1])
                else { return nil }
                continue
            }
            result.append(character)
        }
        return result
    }

    private mutating func parseArray() throws(TOMLError) -> [TOMLValue] {
        let openLine = line
        let openColumn = column
        advance()
        var values: [TOMLValue] = []
        while true {
            try skipBlank()
            switch peek() {
            case "]"?:
                advance()
                return values
            case nil:
                throw error("unterminated array; close it with \"]\"", line: openLine, column: openColumn)
            default:
                break
            }
            values.append(try parseValue())
            try skipBlank()
            switch peek() {
            case ","?: advance()
            case "]"?: break
            case nil: throw error("unterminated array; close it with \"]\"", line: openLine, column: openColumn)
            case let scalar?: throw error("expected \",\" or \"]\" in the array, found \(describe(scalar))")
            }
        }
    }

    private mutating func parseInlineTable() throws(TOMLError) -> TOMLValue {
        let openLine = line
        let openColumn = column
        advance()
        let node = TableNode(origin: .dotted, path: [], line: openLine, column: openColumn)
        while true {
            try skipBlank()
            switch peek() {
            case "}"?:
                advance()
                return node.value
            case nil:
                throw error("unterminated inline table; close it with \"}\"", line: openLine, column: openColumn)
            default:
                break
            }
            try parseKeyValue(into: node)
            try skipBlank()
            switch peek() {
            case ","?: advance()
            case "}"?: break
            case nil:
                throw error("unterminated inline table; close it with \"}\"", line: openLine, column: openColumn)
            case let scalar?:
                throw error("expected \",\" or \"}\" in the inline table, found \(describe(scalar))")
            }
        }
    }

    // MARK: - Strings

    private mutating func parseBasicString() throws(TOMLError) -> String {
        let openLine = line
        let openColumn = column
        advance()
        var result = ""
        while true {
            guard let scalar = peek(), scalar != "\n", scalar != "\r" else {
                throw error(
                    "unterminated string; close it with \" on the same line (use \"\"\" for a multi-line string)",
                    line: openLine, column: openColumn)
            }
            switch scalar {
            case "\"":
                advance()
                return result
            case "\\":
                result.unicodeScalars.append(try parseEscape())
            default:
                try checkControl(scalar)
                result.unicodeScalars.append(scalar)
                advance()
            }
        }
    }

    private mutating func parseMultilineBasicString() throws(TOMLError) -> String {
        let openLine = line
        let openColumn = column
        advance(3)
        try skipOneNewline()
        var result = ""
        while true {
            guard let scalar = peek() else {
                throw error("unterminated multi-line string; close it with \"\"\"", line: openLine, column: openColumn)
            }
            switch scalar {
            case "\"":
                if let end = closingQuotes("\"") {
                    result += String(repeating: "\"", count: end - 3)
                    advance(end)
                    return result
                }
                result += "\""
                advance()
            case "\\":
                // A backslash at the end of a line trims the newline and the whitespace after it.
                var lookahead = 1
                while peek(lookahead) == " " || peek(lookahead) == "\t" { lookahead += 1 }
                if peek(lookahead) == "\n" || (peek(lookahead) == "\r" && peek(lookahead + 1) == "\n") {
                    advance()
                    while let next = peek(), [" ", "\t", "\n", "\r"].contains(next) {
                        if next == "\n" || next == "\r" { try skipNewline() } else { advance() }
                    }
                } else {
                    result.unicodeScalars.append(try parseEscape())
                }
            case "\n", "\r":
                try skipNewline()
                result += "\n"
            default:
                try checkControl(scalar)
                result.unicodeScalars.append(scalar)
                advance()
            }
        }
    }

    private mutating func parseLiteralString() throws(TOMLError) -> String {
        let openLine = line
        let openColumn = column
        advance()
        var result = ""
        while true {
            guard let scalar = peek(), scalar != "\n", scalar != "\r" else {
                throw error(
                    "unterminated string; close it with ' on the same line (use ''' for a multi-line string)",
                    line: openLine, column: openColumn)
            }
            advance()
            if scalar == "'" { return result }
            try checkControl(scalar, column: column - 1)
            result.unicodeScalars.append(scalar)
        }
    }

    private mutating func parseMultilineLiteralString() throws(TOMLError) -> String {
        let openLine = line
        let openColumn = column
        advance(3)
        try skipOneNewline()
        var result = ""
        while true {
            guard let scalar = peek() else {
                throw error("unterminated multi-line string; close it with '''", line: openLine, column: openColumn)
            }
            switch scalar {
            case "'":
                if let end = closingQuotes("'") {
                    result += String(repeating: "'", count: end - 3)
                    advance(end)
                    return result
                }
                result += "'"
                advance()
            case "\n", "\r":
                try skipNewline()
                result += "\n"
            default:
                try checkControl(scalar)
                result.unicodeScalars.append(scalar)
                advance()
            }
        }
    }

    /// At a quote: the length of the closing run (3 to 5 quotes) when it closes a multi-line string.
    private func closingQuotes(_ quote: Unicode.Scalar) -> Int? {
        var count = 0
        while peek(count) == quote { count += 1 }
        guard count >= 3 else { return nil }
        return min(count, 5)
    }

    private mutating func parseEscape() throws(TOMLError) -> Unicode.Scalar {
        let escapeColumn = column
        advance()
        guard let letter = peek() else { throw error("unterminated escape sequence") }
        advance()
        switch letter {
        case "\"": return "\""
        case "\\": return "\\"
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "e": return "\u{1B}"
        case "u", "U":
            let count = letter == "u" ? 4 : 8
            var hex = ""
            for _ in 0..<count {
                guard let digit = peek(), digit.properties.isASCIIHexDigit else {
                    throw error(
                        "\\\(letter) needs exactly \(count) hexadecimal digits, as in \\\(letter)\(String(repeating: "0", count: count - 2))E9; for a backslash itself write \\\\ or use a 'literal string'",
                        line: line, column: escapeColumn)
                }
                hex.unicodeScalars.append(digit)
                advance()
            }
            guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw error("\\\(letter)\(hex) is not a Unicode scalar value", line: line, column: escapeColumn)
            }
            return scalar
        default:
            throw error(
                "invalid escape \\\(letter); use \\\\ for a backslash (or a 'literal string'), or one of \\\" \\n \\t \\r \\b \\f \\uXXXX \\UXXXXXXXX",
                line: line, column: escapeColumn)
        }
    }

    private func checkControl(_ scalar: Unicode.Scalar, column: Int? = nil) throws(TOMLError) {
        if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            throw error(
                "control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) in a string; write it as an escape such as \\u\(String(repeating: "0", count: 4 - hex.count))\(hex)",
                line: line, column: column ?? self.column)
        }
    }

    // MARK: - Whitespace, comments, newlines

    private mutating func skipSpaces() {
        while peek() == " " || peek() == "\t" { advance() }
    }

    /// Whitespace, comments and newlines (inside arrays and inline tables).
    private mutating func skipBlank() throws(TOMLError) {
        while let scalar = peek() {
            switch scalar {
            case " ", "\t": advance()
            case "\n", "\r": try skipNewline()
            case "#": try skipComment()
            default: return
            }
        }
    }

    private mutating func skipComment() throws(TOMLError) {
        while let scalar = peek(), scalar != "\n", scalar != "\r" {
            if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F {
                throw error("control character U+\(String(scalar.value, radix: 16, uppercase: true)) in a comment")
            }
            advance()
        }
    }

    private mutating func skipNewline() throws(TOMLError) {
        if peek() == "\r" {
            guard peek(1) == "\n" else { throw error("a carriage return must be followed by a line feed") }
            advance()
        }
        advance()
    }

    /// Right after an opening `"""` or `'''`, a newline is not part of the string.
    private mutating func skipOneNewline() throws(TOMLError) {
        if peek() == "\n" || (peek() == "\r" && peek(1) == "\n") { try skipNewline() }
    }

    private mutating func expectLineEnd(after what: String) throws(TOMLError) {
        skipSpaces()
        switch peek() {
        case nil: return
        case "#"?: try skipComment()
        case "\n"?, "\r"?: try skipNewline()
        case let scalar?:
            throw error("unexpected \(describe(scalar)) after \(what); put each key = value on its own line")
        }
    }

    // MARK: - Cursor

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let position = index + offset
        return position < scalars.count ? scalars[position] : nil
    }

    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
    }

    private var column: Int { index - lineStart + 1 }

    private func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n", "\r": return "the end of the line"
        case "\"": return "'\"'"
        default:
            if scalar.value < 0x20 { return "U+\(String(scalar.value, radix: 16, uppercase: true))" }
            return "\"\(scalar)\""
        }
    }

    private func error(_ message: String, line: Int? = nil, column: Int? = nil) -> TOMLError {
        TOMLError(file: file, line: line ?? self.line, column: column ?? self.column, message: message)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && ("0"..."9").contains(self) }

    /// 0–15 for an ASCII hexadecimal digit.
    fileprivate var asciiDigitValue: Int? {
        guard isASCII, let value = hexDigitValue else { return nil }
        return value
    }
}
