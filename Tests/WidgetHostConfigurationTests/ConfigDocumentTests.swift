import Foundation
import Testing
@testable import WidgetHostConfiguration

/// The package's root, for the shipped config and scenario files.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Every path of keys and elements under `value`.
private func paths(of value: ConfigValue, at path: KeyLocator.Path) -> [KeyLocator.Path] {
    switch value.content {
    case .table(let table): [path] + table.entries.flatMap { paths(of: $0.value, at: path + [.key($0.key)]) }
    case .array(let items): [path] + items.enumerated().flatMap { paths(of: $1, at: path + [.index($0)]) }
    default: [path]
    }
}

private func parse(_ text: String) throws -> ConfigTable {
    try ConfigDocument(parsing: text, file: "t.toml").root
}

private func failure(_ text: String) -> ConfigError? {
    do {
        _ = try ConfigDocument(parsing: text, file: "t.toml")
        return nil
    } catch {
        return error
    }
}

/// TOMLKit parses; these check what we add: Sendable values in file order, each with its line.
@Suite("TOML documents")
struct ConfigDocumentTests {
    // MARK: - File order

    @Test("Keys keep the order the file defines them in (toml++ sorts them)")
    func order() throws {
        let table = try parse("z = 1\na = 2\nm = 3\n[y]\n[b]")
        #expect(table.keys == ["z", "a", "m", "y", "b"])
        #expect(table.entries.map(\.key) == table.keys)
        let nested = try parse("[budget]\nmin = 1\nenforce = true\nmax = 2\n[budget.pinned]\nZ = 1\nA = 2")
        #expect(nested["budget"]?.table?.keys == ["min", "enforce", "max", "pinned"])
        #expect(nested[path: ["budget", "pinned"]]?.table?.keys == ["Z", "A"])
        #expect(try parse("p = { z = 1, a = 2 }")["p"]?.table?.keys == ["z", "a"])
    }

    // MARK: - Lines

    @Test("Top-level keys, after comments, blank lines and CRLF line ends")
    func topLevelLines() throws {
        let table = try parse("# a comment\r\n\r\na = 1 # trailing\r\n  # indented\nb = 2")
        #expect(table["a"]?.line == 3)
        #expect(table["b"]?.line == 5)
    }

    @Test("Keys in tables; a table carries its header's line")
    func tableLines() throws {
        let table = try parse(
            """
            [socket]
            path = "/run/x.sock"

            [budget.pinned]
            Home = 12
            """)
        #expect(table["socket"]?.line == 1)
        #expect(table[path: ["socket", "path"]]?.line == 2)
        #expect(table[path: ["budget", "pinned"]]?.line == 4)
        #expect(table[path: ["budget", "pinned", "Home"]]?.line == 5)
    }

    @Test("A table made on the way by [a.b] takes the line of its own header when it has one")
    func implicitThenDefined() throws {
        let table = try parse("[a.b]\nx = 1\n[a]\ny = 2")
        #expect(table[path: ["a", "b", "x"]]?.integer == 1)
        #expect(table[path: ["a", "y"]]?.line == 4)
        #expect(table["a"]?.line == 3)
        #expect(try parse("[a.b]\nx = 1")["a"]?.line == 1)
    }

    @Test("Dotted keys, with whitespace around the dots and quoted parts")
    func dottedKeyLines() throws {
        let table = try parse(
            """
            budget.min = 40
            budget . max = 70
            budget."full engagement" = 12
            'control'.app_uids."com.example.app" = [1000]
            "tab\\tkey" = 1
            """)
        #expect(table[path: ["budget", "min"]]?.integer == 40)
        #expect(table[path: ["budget", "full engagement"]]?.integer == 12)
        #expect(table["budget"]?.line == 1)
        #expect(table[path: ["budget", "max"]]?.line == 2)
        #expect(table[path: ["budget", "full engagement"]]?.line == 3)
        #expect(table[path: ["control", "app_uids", "com.example.app"]]?.line == 4)
        #expect(table["tab\tkey"]?.line == 5)
    }

    @Test("Inline tables: the table and each key inside, nested and across the lines of an array")
    func inlineTableLines() throws {
        let table = try parse(
            #"""
            [host]
            budget = { min = 70, max = 70 }
            provider = { policy = "after", a.b = 1, inner = { x = true } }
            reloads = [
              { kind = "Home", every = "10m" },
              { kind = "Lock" },
            ]
            """#)
        #expect(table[path: ["host", "budget"]]?.line == 2)
        #expect(table[path: ["host", "budget", "max"]]?.line == 2)
        #expect(table[path: ["host", "provider", "a", "b"]]?.integer == 1)
        #expect(table[path: ["host", "provider", "inner", "x"]]?.line == 3)
        let reloads = try #require(table[path: ["host", "reloads"]]?.array)
        #expect(reloads.map(\.line) == [5, 6])
        #expect(reloads[1].table?["kind"]?.line == 6)
    }

    @Test("Arrays of tables: each element and its keys, and sub-tables of the last element")
    func arrayOfTablesLines() throws {
        let table = try parse(
            """
            [[widget]]
            kind = "A"
            [widget.provider]
            every = "15m"

            [[widget]]
            kind = "B"
            count = 2
            """)
        let widgets = try #require(table["widget"]?.array)
        #expect(widgets.count == 2)
        #expect(table["widget"]?.line == 1)
        #expect(widgets.map(\.line) == [1, 6])
        #expect(widgets[0].table?[path: ["provider", "every"]]?.string == "15m")
        #expect(widgets[0].table?[path: ["provider", "every"]]?.line == 4)
        #expect(widgets[0].table?["provider"]?.line == 3)
        #expect(widgets[1].table?["provider"] == nil)
        #expect(widgets[1].table?["count"]?.line == 8)
    }

    @Test("Each element of an array over several lines has its own line")
    func arrayElementLines() throws {
        let table = try parse("paths = [\n  \"/usr/lib\",  # system\n  \"/etc\",\n]\nnested = [[1, 2], [\n3]]")
        #expect(table["paths"]?.line == 1)
        #expect(table["paths"]?.array?.map(\.line) == [2, 3])
        #expect(table["nested"]?.array?[1].array?.first?.line == 6)
    }

    @Test("Strings over several lines, and text that only looks like keys, do not move the lines")
    func stringsKeepLines() throws {
        let table = try parse(
            "a = \"\"\"\nb = 1\n[c]\n\"\"\"\nd = '''x\n'''\ne = \"# [not] a = comment\"\nf = \"it's\" # '''\ng = 1")
        #expect(table.keys == ["a", "d", "e", "f", "g"])
        #expect(table["a"]?.string == "b = 1\n[c]\n")
        #expect(table["d"]?.line == 5)
        #expect(table["e"]?.line == 7)
        #expect(table["g"]?.line == 9)
    }

    @Test("A byte-order mark at the start is skipped")
    func byteOrderMark() throws {
        let table = try parse("\u{FEFF}a = 1\nb = 2")
        #expect(table["a"]?.integer == 1)
        #expect(table.keys == ["a", "b"])
        #expect(table["b"]?.line == 2)
    }

    @Test("Every key and element of the shipped config and scenario files is found where it is defined")
    func shippedFilesLocated() throws {
        let files = ["config/widgethost.toml", "config/dev.toml"]
            + (try FileManager.default.subpathsOfDirectory(atPath: packageRoot.appendingPathComponent("scenarios").path))
            .filter { $0.hasSuffix(".toml") }.map { "scenarios/" + $0 }
        #expect(files.count >= 10)
        for file in files {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
            let document = try ConfigDocument(parsing: text, file: file)
            let locator = KeyLocator(text: text)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for path in paths(of: ConfigValue(.table(document.root), line: 1), at: []).dropFirst() {
                let location = try #require(locator.locations[path], "\(file): \(KeyLocator.name(of: path))")
                // The line holds the key (or, for an element, the value) it was found for.
                if case .key(let key) = path.last {
                    #expect(lines[location.line - 1].contains(key), "\(file):\(location.line): \(KeyLocator.name(of: path))")
                }
            }
        }
    }

    // MARK: - Values

    @Test("Every TOML type becomes a value of ours")
    func types() throws {
        let table = try parse(
            #"""
            s = "q\" \u00E9"
            i = 0xDEAD_beef
            max = 9223372036854775807
            f = 6.02e23
            inf = -inf
            nan = nan
            b = true
            mixed = [1, "two", 3.0, true, { x = 1 }, [2]]
            odt = 2026-02-15T08:00:00+01:00
            utc = 2026-02-15T08:00:00.5Z
            ldt = 2026-02-15T08:00:00
            ld = 2026-02-15
            lt = 08:00:30
            """#)
        #expect(table["s"]?.string == "q\" \u{E9}")
        #expect(table["i"]?.integer == 0xDEAD_BEEF)
        #expect(table["max"]?.integer == Int.max)
        #expect(table["f"]?.float == 6.02e23)
        #expect(table["inf"]?.float == -.infinity)
        #expect(table["nan"]?.float?.isNaN == true)
        #expect(table["b"]?.boolean == true)
        #expect(
            table["mixed"]?.array?.map(\.typeDescription)
                == ["an integer", "a string", "a float", "a boolean", "a table", "an array"])
        #expect(table["odt"]?.content == .dateTime("2026-02-15T08:00:00+01:00", .offsetDateTime))
        #expect(table["utc"]?.content == .dateTime("2026-02-15T08:00:00.5Z", .offsetDateTime))
        #expect(table["ldt"]?.typeDescription == "a local date-time")
        #expect(table["ld"]?.tomlText == "2026-02-15")
        #expect(table["lt"]?.content == .dateTime("08:00:30", .localTime))
        #expect(table["odt"]?.typeDescription == "an offset date-time")
    }

    @Test("Values written back as TOML, for messages")
    func tomlText() throws {
        #expect(try parse(#"a = "x\"y""#)["a"]?.tomlText == #""x\"y""#)
        #expect(try parse("a = [1, \"b\", { c = true }]")["a"]?.tomlText == #"[1, "b", { c = true }]"#)
        #expect(ConfigValue.key("com.example.app") == #""com.example.app""#)
        #expect(ConfigValue.key("max_entries") == "max_entries")
    }

    // MARK: - Syntax errors

    struct Failure: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: String
        var testDescription: String { expected }
    }

    @Test(
        "A key or table written twice is named in full, with the line it was first defined on",
        arguments: [
            Failure(text: "a = 1\na = 2", expected: "t.toml:2: duplicate key a (first defined at line 1); a key is defined once"),
            Failure(
                text: "[budget]\nmin = 1\nmin = 2",
                expected: "t.toml:3: duplicate key budget.min (first defined at line 2); a key is defined once"),
            Failure(
                text: "[[widget]]\nkind = \"A\"\n[[widget]]\nkind = \"B\"\nkind = \"C\"",
                expected: "t.toml:5: duplicate key widget[2].kind (first defined at line 4); a key is defined once"),
            Failure(
                text: "budget.min = 1\nbudget.min = 2",
                expected: "t.toml:2: duplicate key budget.min (first defined at line 1); a key is defined once"),
            Failure(text: "p = { x = 1, x = 2 }", expected: "t.toml:1: duplicate key x; a key is defined once"),
            Failure(
                text: "[budget]\nmin = 1\n\n[budget]",
                expected: "t.toml:4: table [budget] is defined twice (first at line 1); merge the two"),
            Failure(
                text: "budget.min = 1\n[budget]",
                expected: "t.toml:2: table [budget] is defined twice (first at line 1); merge the two"),
            Failure(
                text: "p = { x = 1 }\n[p]", expected: "t.toml:2: table [p] is defined twice (first at line 1); merge the two"),
        ])
    func redefinitions(refused: Failure) {
        #expect(failure(refused.text)?.description == refused.expected)
        #expect(failure(refused.text)?.kind == .syntax)
    }

    @Test(
        "A word where a value belongs gets the quotes suggested",
        arguments: [
            Failure(
                text: "level = info",
                expected: "t.toml:1: info is not a value; quote strings (\"info\"), and booleans are true or false"),
            Failure(
                text: "[log]\nlevel = verbose",
                expected: "t.toml:2: verbose is not a value; quote strings (\"verbose\"), and booleans are true or false"),
            Failure(
                text: "enforce = True",
                expected: "t.toml:1: True is not a value; quote strings (\"True\"), and booleans are true or false"),
            Failure(
                text: "every = 15m", expected: "t.toml:1: 15m is not a value; quote strings (\"15m\"), and booleans are true or false"),
            Failure(
                text: "at = [\"08:00\", 18:30]",
                expected: "t.toml:1: 18:30 is not a value; quote strings (\"18:30\"), and booleans are true or false"),
        ])
    func bareWords(refused: Failure) {
        #expect(failure(refused.text)?.description == refused.expected)
    }

    @Test(
        "Other malformed documents are refused with TOMLKit's reason, on its line",
        arguments: [
            // Strings.
            ("a = \"open\nb = 1", 1, "unterminated string; close it with \" on the same line (use \"\"\" for a multi-line string)"),
            ("a = 'open", 1, "unterminated string; close it with ' on the same line (use ''' for a multi-line string)"),
            ("x = 1\na = \"\"\"open\n", 2, "unterminated multi-line string; close it with \"\"\""),
            (#"path = "C:\Users""#, 1, #"for a backslash itself write \\ or use a 'literal string'"#),
            (#"a = "x\q""#, 1, #"unknown escape sequence '\q' (reading a string); for a backslash itself write \\"#),
            (#"a = "\uD800""#, 1, "unicode surrogates"),
            ("a = \"x\u{01}\"", 1, "unescaped control characters"),
            // Structure.
            ("[a.b]\nx = 1\n[a]\nb.y = 2", 4, "cannot redefine existing table as dotted key-value pair"),
            ("a = 1\na.b = 2", 2, "cannot redefine existing integer as dotted key-value pair"),
            ("a = [1]\n[[a]]", 2, "cannot redefine existing array 'a' as array-of-tables"),
            ("[a]\n[[a]]", 2, "cannot redefine existing table 'a' as array-of-tables"),
            ("budget min = 1", 1, "expected '=', saw 'm' (reading a key-value pair)"),
            ("level =\n", 1, "expected value"),
            ("a = 1 2", 1, "expected a comment or whitespace, saw '2'"),
            ("[a] b = 1", 1, "expected a comment or whitespace, saw 'b'"),
            ("[a", 1, "encountered end-of-file (reading a table header)"),
            ("a.@ = 1", 1, "expected bare key starting character or string delimiter, saw '@'"),
            ("a = 1\r2", 1, "expected '\\n' after '\\r'"),
            // Numbers.
            ("a = 007", 1, "leading zeroes are prohibited"),
            ("a = 1__000", 1, "underscores may only follow digits"),
            ("a = 99999999999999999999", 1, "is not representable in 64 bits"),
            ("\n\na = 1.", 3, "(reading a floating-point)"),
            // Arrays and inline tables.
            ("a = [1, 2", 1, "encountered end-of-file (reading an array)"),
            ("a = [1 2]", 1, "expected comma or closing ']', saw '2' (reading an array)"),
            ("a = [1,,2]", 1, "expected value or closing ']', saw comma"),
            ("a = { x = 1", 1, "encountered end-of-file (reading an inline table)"),
            ("a = { x = 1 y = 2 }", 1, "expected comma or closing '}', saw 'y'"),
            ("p = {\n  a = 1,\n}", 1, "an inline table stays on one line in TOML 1.0"),
        ] as [(String, Int, String)])
    func malformed(text: String, line: Int, fragment: String) throws {
        let error = try #require(failure(text))
        #expect(error.kind == .syntax)
        #expect(error.line == line)
        #expect(error.column != nil)
        #expect(error.description.hasPrefix("t.toml:\(line): "), "\(error)")
        #expect(error.message.contains(fragment), "\(error)")
    }

    @Test("A NUL character is refused on its line, not read as the end of the file")
    func nul() {
        #expect(failure("a = 1\nb = \"x\u{0}y\"\nc = 3")?.description == "t.toml:2: a NUL character is not allowed in TOML; remove it")
    }

    @Test("A multi-line string counts its lines, so errors after it name the right line")
    func linesAfterMultilineString() {
        let error = failure("a = \"\"\"\none\ntwo\n\"\"\"\nb = oops")
        #expect(error?.line == 5)
    }

    @Test("An error names the file as given")
    func fileName() {
        do {
            _ = try ConfigDocument(parsing: "a = ", file: "scenarios/day.toml")
            Issue.record("no error")
        } catch {
            #expect(error.file == "scenarios/day.toml")
            #expect(error.description.hasPrefix("scenarios/day.toml:1: "))
        }
    }
}
