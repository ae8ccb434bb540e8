/// `{{name}}` data bindings in config strings: `{{weather.temperature}}°`. Names are
/// dotted paths into the data the app shares (`data.json`).
public enum Placeholder {
    public enum Piece: Equatable, Sendable {
        case text(String)
        case binding(String)
    }

    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Splits `text` into literal text and bindings, or says what is wrong with a placeholder.
    public static func parse(_ text: String) -> Result<[Piece], SyntaxError> {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                return .failure(
                    SyntaxError(description: "the placeholder \"\(rest[open.lowerBound...])\" is not closed; write {{name}}"))
            }
            let name = String(rest[open.upperBound..<close.lowerBound])
            guard isValidName(name) else {
                return .failure(
                    SyntaxError(
                        description: "\"{{\(name)}}\" is not a placeholder name; use letters, digits, _ and dots, such as {{weather.temperature}}"))
            }
            pieces.append(.binding(name))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return .success(pieces)
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || $0 == "." || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }),
            !name.hasSuffix("."), !name.contains("..")
        else { return false }
        return true
    }

    /// The value of the dotted `name` in `data`, as text; nil when absent (or not a scalar).
    public static func value(of name: String, in data: JSON) -> String? {
        var current = data
        for key in name.split(separator: ".") {
            guard let next = current[String(key)] else { return nil }
            current = next
        }
        switch current {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .null, .array, .object: return nil
        }
    }
}
