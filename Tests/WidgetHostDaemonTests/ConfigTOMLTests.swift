import Testing
@testable import WidgetHostDaemon

private func parse(_ text: String) throws -> TOMLTable {
    try TOMLDocument(parsing: text, file: "t.toml").root
}

private func failure(_ text: String) -> TOMLError? {
    do {
        _ = try TOMLDocument(parsing: text, file: "t.toml")
        return nil
    } catch {
        return error
    }
}

@Suite("The TOML reader")
struct ConfigTOMLTests {
    // MARK: - Constructs

    @Test("Comments, blank lines and CRLF line ends are ignored")
    func commentsAndNewlines() throws {
        let table = try parse("# a comment\r\n\r\na = 1 # trailing\r\n  # indented\nb = 2")
        #expect(table.keys == ["a", "b"])
        #expect(table["a"]?.integer == 1)
        #expect(table["b"]?.integer == 2)
        #expect(table["b"]?.line == 5)
    }

    @Test("A byte-order mark at the start is skipped")
    func byteOrderMark() throws {
        #expect(try parse("\u{FEFF}a = 1")["a"]?.integer == 1)
    }

    @Test("Tables and nested tables; a table carries its header's line")
    func tables() throws {
        let table = try parse(
            """
            [socket]
            path = "/run/x.sock"

            [budget.pinned]
            Home = 12
            """)
        #expect(table[path: ["socket", "path"]]?.string == "/run/x.sock")
        #expect(table[path: ["budget", "pinned", "Home"]]?.integer == 12)
        #expect(table["socket"]?.line == 1)
        #expect(table[path: ["budget", "pinned"]]?.line == 4)
        #expect(table[path: ["budget", "pinned", "Home"]]?.line == 5)
    }

    @Test("A table created implicitly by [a.b] may be defined later, once")
    func implicitThenDefined() throws {
        let table = try parse("[a.b]\nx = 1\n[a]\ny = 2")
        #expect(table[path: ["a", "b", "x"]]?.integer == 1)
        #expect(table[path: ["a", "y"]]?.integer == 2)
        #expect(table["a"]?.line == 3)
    }

    @Test("Arrays of tables, with sub-tables of the last element")
    func arraysOfTables() throws {
        let table = try parse(
            """
            [[widget]]
            kind = "A"
            [widget.provider]
            every = "15m"

            [[widget]]
            kind = "B"
            """)
        let widgets = try #require(table["widget"]?.array)
        #expect(widgets.count == 2)
        #expect(widgets[0].table?["kind"]?.string == "A")
        #expect(widgets[0].table?[path: ["provider", "every"]]?.string == "15m")
        #expect(widgets[1].table?["kind"]?.string == "B")
        #expect(widgets[1].table?["provider"] == nil)
        #expect(widgets[0].line == 1)
        #expect(widgets[1].line == 6)
        #expect(table["widget"]?.line == 1)
    }

    @Test("Dotted keys create tables, with whitespace around the dots and quoted parts")
    func dottedKeys() throws {
        let table = try parse(
            """
            budget.min = 40
            budget . max = 70
            budget."full engagement" = 12
            'control'.app_uids."com.example.app" = [1000]
            """)
        #expect(table[path: ["budget", "min"]]?.integer == 40)
        #expect(table[path: ["budget", "max"]]?.integer == 70)
        #expect(table[path: ["budget", "full engagement"]]?.integer == 12)
        #expect(table[path: ["control", "app_uids", "com.example.app"]]?.array?.first?.integer == 1000)
        #expect(table["budget"]?.line == 1)
        #expect(table[path: ["budget", "max"]]?.line == 2)
    }

    @Test("Sub-tables may be added under a table made by dotted keys")
    func headerUnderDottedTable() throws {
        let table = try parse("[fruit]\napple.color = \"red\"\n[fruit.apple.texture]\nsmooth = true")
        #expect(table[path: ["fruit", "apple", "color"]]?.string == "red")
        #expect(table[path: ["fruit", "apple", "texture", "smooth"]]?.boolean == true)
    }

    @Test("Bare keys may be digits, dashes and underscores; quoted keys anything")
    func keys() throws {
        let table = try parse("1234 = 1\nmax-entries = 2\n_x = 3\n\"a b\" = 4\n'c\"d' = 5\n\"\" = 6")
        #expect(table.keys == ["1234", "max-entries", "_x", "a b", "c\"d", ""])
    }

    @Test("Basic strings and their escapes")
    func basicStrings() throws {
        let table = try parse(#"s = "q\" b\\ n\n t\t r\r u\u00E9 U\U0001F600 b\b f\f e\e""#)
        #expect(table["s"]?.string == "q\" b\\ n\n t\t r\r u\u{E9} U\u{1F600} b\u{08} f\u{0C} e\u{1B}")
    }

    @Test("Literal strings keep backslashes")
    func literalStrings() throws {
        let table = try parse(#"path = 'C:\Users\x' "#)
        #expect(table["path"]?.string == #"C:\Users\x"#)
    }

    @Test("Multi-line strings: the first newline is dropped, a line-ending backslash trims")
    func multilineStrings() throws {
        let table = try parse(
            "a = \"\"\"\nline 1\nline 2\"\"\"\nb = \"\"\"one \\\n     two\"\"\"\nc = '''\nraw \\n '''\nd = \"\"\"x\"\"\"\"\"\ne = 1")
        #expect(table["a"]?.string == "line 1\nline 2")
        #expect(table["b"]?.string == "one two")
        #expect(table["c"]?.string == "raw \\n ")
        #expect(table["d"]?.string == "x\"\"")
        #expect(table["e"]?.line == 9)
    }

    @Test("Integers: signs, underscores, hexadecimal, octal and binary")
    func integers() throws {
        let table = try parse(
            "a = 42\nb = +17\nc = -5\nd = 1_000_000\ne = 0\nf = 0xDEAD_beef\ng = 0o755\nh = 0b1010\ni = -0\nj = 9223372036854775807")
        #expect(table["a"]?.integer == 42)
        #expect(table["b"]?.integer == 17)
        #expect(table["c"]?.integer == -5)
        #expect(table["d"]?.integer == 1_000_000)
        #expect(table["e"]?.integer == 0)
        #expect(table["f"]?.integer == 0xDEAD_BEEF)
        #expect(table["g"]?.integer == 0o755)
        #expect(table["h"]?.integer == 10)
        #expect(table["i"]?.integer == 0)
        #expect(table["j"]?.integer == Int.max)
    }

    @Test("Floats: fractions, exponents, inf and nan")
    func floats() throws {
        let table = try parse(
            "a = 3.14\nb = -0.5\nc = 1e3\nd = 6.02E+23\ne = 1_000.5\nf = inf\ng = -inf\nh = nan\ni = 5e-3")
        #expect(table["a"]?.float == 3.14)
        #expect(table["b"]?.float == -0.5)
        #expect(table["c"]?.float == 1000)
        #expect(table["d"]?.float == 6.02e23)
        #expect(table["e"]?.float == 1000.5)
        #expect(table["f"]?.float == .infinity)
        #expect(table["g"]?.float == -.infinity)
        #expect(table["h"]?.float?.isNaN == true)
        #expect(table["i"]?.float == 0.005)
        #expect(table["a"]?.number == 3.14)
        #expect(try parse("x = 3")["x"]?.number == 3)
    }

    @Test("Booleans")
    func booleans() throws {
        let table = try parse("a = true\nb = false")
        #expect(table["a"]?.boolean == true)
        #expect(table["b"]?.boolean == false)
    }

    @Test("Arrays: multi-line, trailing comma, comments, nested, mixed; each element has its line")
    func arrays() throws {
        let table = try parse(
            """
            paths = [
              "/usr/lib/widgethost/plugins",  # system
              "/etc/widgethost/plugins.d",
            ]
            empty = []
            nested = [[1, 2], ["a"]]
            mixed = [1, "two", 3.0, true, { x = 1 }]
            """)
        let paths = try #require(table["paths"]?.array)
        #expect(paths.map(\.string) == ["/usr/lib/widgethost/plugins", "/etc/widgethost/plugins.d"])
        #expect(table["paths"]?.line == 1)
        #expect(paths[0].line == 2)
        #expect(paths[0].column == 3)
        #expect(paths[1].line == 3)
        #expect(table["empty"]?.array?.isEmpty == true)
        #expect(table["nested"]?.array?[0].array?.map(\.integer) == [1, 2])
        #expect(table["mixed"]?.array?.map(\.typeDescription) == ["an integer", "a string", "a float", "a boolean", "a table"])
    }

    @Test("Inline tables, nested and empty, with dotted keys inside")
    func inlineTables() throws {
        let table = try parse(
            #"""
            budget = { min = 70, max = 70 }
            provider = { policy = "after", every = "15m", a.b = 1, inner = { x = true } }
            none = {}
            reloads = [ { kind = "Home", every = "10m" }, { kind = "Lock" } ]
            """#)
        #expect(table[path: ["budget", "min"]]?.integer == 70)
        #expect(table[path: ["provider", "a", "b"]]?.integer == 1)
        #expect(table[path: ["provider", "inner", "x"]]?.boolean == true)
        #expect(table["none"]?.table?.isEmpty == true)
        #expect(table["reloads"]?.array?[1].table?["kind"]?.string == "Lock")
        #expect(table["budget"]?.line == 1)
        #expect(table["budget"]?.column == 10)
        #expect(table[path: ["budget", "max"]]?.column == 28)
    }

    @Test("Inline tables may span lines and end with a comma (as TOML 1.1 allows)")
    func multilineInlineTables() throws {
        let table = try parse("p = {\n  a = 1, # one\n  b = 2,\n}\nq = 3")
        #expect(table[path: ["p", "b"]]?.integer == 2)
        #expect(table[path: ["p", "b"]]?.line == 3)
        #expect(table["q"]?.line == 5)
    }

    @Test("Every value knows its line and column")
    func positions() throws {
        let table = try parse("\n\n[limits]\n  memory   = \"30MiB\"\n\twarn_entries=100")
        #expect(table[path: ["limits", "memory"]]?.line == 4)
        #expect(table[path: ["limits", "memory"]]?.column == 14)
        #expect(table[path: ["limits", "warn_entries"]]?.line == 5)
        #expect(table[path: ["limits", "warn_entries"]]?.column == 15)
    }

    @Test("Keys keep the order the file defines them in")
    func order() throws {
        let table = try parse("z = 1\na = 2\nm = 3\n[y]\n[b]")
        #expect(table.keys == ["z", "a", "m", "y", "b"])
        #expect(table.entries.map(\.key) == table.keys)
    }

    @Test("Values written back as TOML, for messages")
    func tomlText() throws {
        let table = try parse(#"a = "x\"y""#)
        #expect(table["a"]?.tomlText == #""x\"y""#)
        #expect(try parse("a = [1, \"b\", { c = true }]")["a"]?.tomlText == #"[1, "b", { c = true }]"#)
        #expect(TOMLValue.key("com.example.app") == #""com.example.app""#)
        #expect(TOMLValue.key("max_entries") == "max_entries")
    }

    // MARK: - Errors

    struct Failure: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: String
        var testDescription: String { expected }
    }

    @Test(
        "Each malformed document is refused with file:line:column and what to do",
        arguments: [
            // Duplicates.
            Failure(
                text: "a = 1\na = 2",
                expected: "t.toml:2:1: duplicate key a (first defined at line 1); a key is defined once"),
            Failure(
                text: "[budget]\nmin = 1\nmin = 2",
                expected: "t.toml:3:1: duplicate key budget.min (first defined at line 2); a key is defined once"),
            Failure(
                text: "[budget]\nmin = 1\n\n[budget]",
                expected: "t.toml:4:1: table [budget] is defined twice (first at line 1); merge the two"),
            Failure(
                text: "budget.min = 1\n[budget]",
                expected: "t.toml:2:1: table [budget] was already defined by dotted keys (line 1); define it in one place"),
            Failure(
                text: "[a.b]\nx = 1\n[a]\nb.y = 2",
                expected: "t.toml:4:1: a.b is a table defined at line 1; put this key under [a.b] instead of using a dotted key"),
            Failure(
                text: "p = { x = 1, x = 2 }",
                expected: "t.toml:1:14: duplicate key x (first defined at line 1); a key is defined once"),
            Failure(
                text: "a = 1\na.b = 2",
                expected: "t.toml:2:1: a is already an integer (line 1), so it cannot hold keys"),
            Failure(
                text: "p = { x = 1 }\n[p]",
                expected: "t.toml:2:1: p is already an inline table (line 1); a key is defined once"),
            Failure(
                text: "p = { x = 1 }\np.y = 2",
                expected: "t.toml:2:1: p is already an inline table (line 1), so it cannot hold keys"),
            Failure(
                text: "a = [1]\n[[a]]",
                expected: "t.toml:2:1: a is a static array (line 1); [[a]] cannot append to it"),
            Failure(
                text: "[[a]]\n[a]",
                expected: "t.toml:2:1: a is an array of tables (line 1); write [[a]] to add an element"),
            Failure(
                text: "[a]\n[[a]]",
                expected: "t.toml:2:1: a is already a table (line 1); [[a]] needs an array of tables"),
            Failure(
                text: "a = 1\n[a.b]",
                expected: "t.toml:2:2: a is already an integer (line 1), so it cannot hold a table"),
            // Keys and structure.
            Failure(
                text: "budget min = 1",
                expected: "t.toml:1:8: expected \"=\" after the key budget, found \"m\""),
            Failure(text: "level\n", expected: "t.toml:1:6: expected \"=\" and a value after the key level"),
            Failure(text: "level =\n", expected: "t.toml:1:8: expected a value after \"=\""),
            Failure(text: "level = # none", expected: "t.toml:1:9: expected a value after \"=\""),
            Failure(
                text: "a = 1 2",
                expected: "t.toml:1:7: unexpected \"2\" after a value; put each key = value on its own line"),
            Failure(
                text: "[a] b = 1",
                expected: "t.toml:1:5: unexpected \"b\" after the table header; put each key = value on its own line"),
            Failure(text: "[a", expected: "t.toml:1:3: expected \"]\" to close the table header [a]"),
            Failure(text: "[[a]", expected: "t.toml:1:4: expected \"]]\" to close the array-of-tables header [[a]]"),
            Failure(
                text: "a.@ = 1",
                expected: "t.toml:1:3: expected a key, found \"@\"; bare keys use A-Z a-z 0-9 _ -, quote any other key"),
            Failure(text: "a = 1\r2", expected: "t.toml:1:6: a carriage return must be followed by a line feed"),
            Failure(text: "# ok\r", expected: "t.toml:1:5: a carriage return must be followed by a line feed"),
            // Strings.
            Failure(
                text: "a = \"open\nb = 1",
                expected: "t.toml:1:5: unterminated string; close it with \" on the same line (use \"\"\" for a multi-line string)"),
            Failure(
                text: "a = 'open",
                expected: "t.toml:1:5: unterminated string; close it with ' on the same line (use ''' for a multi-line string)"),
            Failure(text: "a = \"\"\"open\n", expected: "t.toml:1:5: unterminated multi-line string; close it with \"\"\""),
            Failure(
                text: #"path = "C:\Users""#,
                expected: #"t.toml:1:11: \U needs exactly 8 hexadecimal digits, as in \U000000E9; for a backslash itself write \\ or use a 'literal string'"#),
            Failure(
                text: #"a = "x\q""#,
                expected: #"t.toml:1:7: invalid escape \q; use \\ for a backslash (or a 'literal string'), or one of \" \n \t \r \b \f \uXXXX \UXXXXXXXX"#),
            Failure(
                text: #"a = "\u12""#,
                expected: #"t.toml:1:6: \u needs exactly 4 hexadecimal digits, as in \u00E9; for a backslash itself write \\ or use a 'literal string'"#),
            Failure(text: #"a = "\uD800""#, expected: #"t.toml:1:6: \uD800 is not a Unicode scalar value"#),
            Failure(
                text: "a = \"x\u{01}\"",
                expected: "t.toml:1:7: control character U+0001 in a string; write it as an escape such as \\u0001"),
            // Numbers and bare words.
            Failure(text: "a = 007", expected: "t.toml:1:5: 007: leading zeros are not allowed in an integer"),
            Failure(text: "a = 1__000", expected: "t.toml:1:5: 1__000: \"_\" must stand between two digits"),
            Failure(text: "a = _1", expected: "t.toml:1:5: _1 is not a value; quote strings (\"_1\"), and booleans are true or false"),
            Failure(text: "a = 1_", expected: "t.toml:1:5: 1_: \"_\" must stand between two digits"),
            Failure(
                text: "a = 99999999999999999999",
                expected: "t.toml:1:5: 99999999999999999999 does not fit in a 64-bit integer"),
            Failure(
                text: "a = 1.",
                expected: "t.toml:1:5: 1. is not a valid float; write digits on both sides of the point, as in 0.5 or 1e-3"),
            Failure(
                text: "a = .5",
                expected: "t.toml:1:5: .5 is not a value; quote strings (\".5\"), and booleans are true or false"),
            Failure(text: "a = 0xZZ", expected: "t.toml:1:5: 0xZZ is not a valid hexadecimal integer"),
            Failure(text: "a = -0x10", expected: "t.toml:1:5: -0x10: a hexadecimal integer cannot have a sign"),
            Failure(text: "a = 30s", expected: "t.toml:1:5: 30s is not a number; quote strings (\"30s\")"),
            Failure(
                text: "level = info",
                expected: "t.toml:1:9: info is not a value; quote strings (\"info\"), and booleans are true or false"),
            Failure(
                text: "enforce = True",
                expected: "t.toml:1:11: True is not a value; quote strings (\"True\"), and booleans are true or false"),
            // Dates and times.
            Failure(
                text: "[simulation]\nstart = 2026-02-15T00:00:00Z",
                expected: "t.toml:2:9: offset date-time 2026-02-15T00:00:00Z is not supported; quote dates as strings: \"2026-02-15T00:00:00Z\""),
            Failure(
                text: "start = 2026-02-15 08:00:00+01:00",
                expected: "t.toml:1:9: offset date-time 2026-02-15 08:00:00+01:00 is not supported; quote dates as strings: \"2026-02-15 08:00:00+01:00\""),
            Failure(
                text: "start = 2026-02-15T08:00:00",
                expected: "t.toml:1:9: local date-time 2026-02-15T08:00:00 is not supported; quote dates as strings: \"2026-02-15T08:00:00\""),
            Failure(
                text: "day = 2026-02-15",
                expected: "t.toml:1:7: local date 2026-02-15 is not supported; quote dates as strings: \"2026-02-15\""),
            Failure(
                text: "from = 08:00:00",
                expected: "t.toml:1:8: local time 08:00:00 is not supported; quote dates as strings: \"08:00:00\""),
            // Arrays and inline tables.
            Failure(text: "a = [1, 2", expected: "t.toml:1:5: unterminated array; close it with \"]\""),
            Failure(text: "a = [1 2]", expected: "t.toml:1:8: expected \",\" or \"]\" in the array, found \"2\""),
            Failure(text: "a = [1,,2]", expected: "t.toml:1:8: expected a value, found \",\""),
            Failure(text: "a = { x = 1", expected: "t.toml:1:5: unterminated inline table; close it with \"}\""),
            Failure(text: "a = { x = 1 y = 2 }", expected: "t.toml:1:13: expected \",\" or \"}\" in the inline table, found \"y\""),
        ])
    func errors(failure: Failure) {
        #expect(ConfigTOMLTests.describe(failure.text) == failure.expected)
    }

    private static func describe(_ text: String) -> String {
        failure(text)?.description ?? "no error"
    }

    @Test("A multi-line string counts its lines, so errors after it name the right line")
    func linesAfterMultilineString() {
        let error = failure("a = \"\"\"\none\ntwo\n\"\"\"\nb = oops")
        #expect(error?.line == 5)
        #expect(error?.column == 5)
    }

    @Test("An error names the file as given")
    func fileName() {
        do {
            _ = try TOMLDocument(parsing: "a = ", file: "scenarios/day.toml")
            Issue.record("no error")
        } catch {
            #expect(error.file == "scenarios/day.toml")
            #expect(error.description.hasPrefix("scenarios/day.toml:1:5: "))
        }
    }
}
