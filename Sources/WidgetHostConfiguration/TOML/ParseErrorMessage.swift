import TOMLKit

/// TOMLKit's parse errors as `file:line: …` messages. toml++ says what it expected
/// ("Error while parsing key-value pair: cannot redefine existing integer 'min'"); for the
/// mistakes people make most — a key or table written twice, a word without quotes, an
/// unterminated string, a backslash in a Windows path, an inline table over several lines —
/// the message says it in the file's terms and how to fix it.
enum ParseErrorMessage {
    static func configError(_ error: TOMLParseError, text: String, file: String) -> ConfigError {
        let line = error.source.begin.line
        let column = error.source.begin.column
        var scope = ""
        var reason = error.description
        let lead = "Error while parsing "
        if reason.hasPrefix(lead), let colon = reason.range(of: ": ") {
            scope = String(reason[reason.index(reason.startIndex, offsetBy: lead.count)..<colon.lowerBound])
            reason = String(reason[colon.upperBound...])
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lineText = line >= 1 && line <= lines.count ? String(lines[line - 1]) : ""
        let before = lines.prefix(max(0, line - 1)).joined(separator: "\n")
        let message =
            redefinition(reason, scope: scope, before: before)
            ?? bareWord(in: lineText, column: column, scope: scope)
            ?? hinted(reason, scope: scope, lineText: lineText, column: column)
        return ConfigError(kind: .syntax, file: file, line: line, column: column, message: message)
    }

    /// "cannot redefine existing integer 'min'" → the key's full name and where it was first defined.
    private static func redefinition(_ reason: String, scope: String, before: String) -> String? {
        let prefix = "cannot redefine existing "
        guard reason.hasPrefix(prefix), reason.hasSuffix("'"), let open = reason.firstIndex(of: "'") else { return nil }
        let written = String(reason[reason.index(after: open)..<reason.index(before: reason.endIndex)])
        let earlier = KeyLocator(text: before)
        let keys = KeyLocator.keys(of: written)
        guard !keys.isEmpty else { return nil }
        switch scope {
        case "key-value pair":
            let path = earlier.currentTable + keys.map { .key($0) }
            let first = earlier.locations[path].map { " (first defined at line \($0.line))" } ?? ""
            return "duplicate key \(KeyLocator.name(of: path))\(first); a key is defined once"
        case "table header" where reason.hasPrefix(prefix + "table '"):
            let path = earlier.resolved(keys)
            let first = earlier.locations[path].map { " (first at line \($0.line))" } ?? ""
            return "table [\(KeyLocator.name(of: path))] is defined twice\(first); merge the two"
        default:
            return nil
        }
    }

    /// `level = info`, `every = 15m`, `enforce = True`: a word where a value belongs.
    private static func bareWord(in lineText: String, column: Int, scope: String) -> String? {
        guard ["boolean", "floating-point", "decimal integer", "value", "date-time", "date", "time"].contains(scope)
        else { return nil }
        let scalars = Array(lineText.unicodeScalars)
        let delimiters: Set<Unicode.Scalar> = [" ", "\t", "=", ",", "[", "]", "{", "}", "#", "\r"]
        var start = min(max(column - 1, 0), scalars.count)
        while start > 0, !delimiters.contains(scalars[start - 1]) { start -= 1 }
        var end = start
        while end < scalars.count, !delimiters.contains(scalars[end]) { end += 1 }
        var word = ""
        word.unicodeScalars.append(contentsOf: scalars[start..<end])
        guard word.unicodeScalars.contains(where: { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || $0 == ":" }),
            word.unicodeScalars.allSatisfy({ $0.isASCII && !$0.properties.isWhitespace && $0 != "\"" && $0 != "'" })
        else { return nil }
        return "\(word) is not a value; quote strings (\(ConfigValue.quoted(word))), and booleans are true or false"
    }

    private static func hinted(_ reason: String, scope: String, lineText: String, column: Int) -> String {
        var message = reason
        if !scope.isEmpty { message += " (reading \(article(scope)) \(scope))" }
        if scope == "string" || scope == "literal string" {
            let quote = scope == "string" ? "\"" : "'"
            let triple = String(repeating: quote, count: 3)
            if reason == "encountered end-of-file", lineText.contains(triple) {
                return "unterminated multi-line string; close it with \(triple)"
            }
            if column > lineText.unicodeScalars.count {
                return "unterminated string; close it with \(quote) on the same line (use \(triple) for a multi-line string)"
            }
        }
        if scope == "unicode scalar sequence" || reason.hasPrefix("unknown escape sequence") {
            message += "; for a backslash itself write \\\\ or use a 'literal string'"
        }
        if scope == "inline table", reason.hasSuffix("saw '\\n'") {
            message += "; an inline table stays on one line in TOML 1.0: write a [table] with a key per line instead"
        }
        return message
    }

    private static func article(_ word: String) -> String {
        guard let first = word.first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
