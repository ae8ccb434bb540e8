/// Escaping for everything an extension sends: text content and attribute values. Every
/// string from an archive reaches the page through one of these, so `<script>` or
/// `"><img onerror=…>` in a Text stays text.
public enum HTMLText {
    /// Text between tags.
    public static func escape(_ text: String) -> String {
        escape(text, attribute: false)
    }

    /// A quoted attribute value (always written in double quotes).
    public static func attribute(_ text: String) -> String {
        escape(text, attribute: true)
    }

    private static func escape(_ text: String, attribute: Bool) -> String {
        var needsWork = false
        for byte in text.utf8 where byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 || byte < 0x20 {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n" where !attribute: result += "<br>"
            case "\t", "\n", "\r": result += " "
            default:
                // Other control characters would be invisible or break the page; drop them.
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Numbers as CSS writes them: integers without a point, others to two decimals.
enum CSSNumber {
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    static func px(_ value: Double) -> String { format(value) + "px" }
}
