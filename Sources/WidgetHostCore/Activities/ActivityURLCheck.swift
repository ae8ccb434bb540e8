import Foundation
import WidgetHostProtocol

/// What the host accepts as a Live Activity's URL (`widgetURL`, `Link`): at most `maxBytes`
/// UTF-8 bytes (ours, the length browsers and servers commonly accept), parsed by Foundation's
/// `URL(string:)` as an absolute URL with a scheme (what a tap hands to the app), and without
/// whitespace or control characters.
public enum ActivityURLCheck {
    public static let maxBytes = 2048

    /// Why `text` is not an acceptable URL, as the end of a sentence ("is not a URL: …"); nil when it is.
    public static func problem(_ text: String) -> String? {
        let bytes = text.utf8.count
        if bytes > maxBytes {
            return "is \(bytes) bytes long, over \(maxBytes); shorten it (pass an identifier, not the data)"
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            return "is not a URL (it contains whitespace or control characters): \(ActivityAttributeText.quoted(text))"
        }
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
            return "is not a URL with a scheme (\(ActivityAttributeText.quoted(text))); write one such as \"myapp://order/42\""
        }
        return nil
    }
}

/// Untrusted text quoted in a refusal: at most 80 characters, JSON-escaped.
enum ActivityAttributeText {
    static func quoted(_ text: String) -> String {
        let short = text.count > 80 ? String(text.prefix(80)) + "…" : text
        guard let data = try? WireCoding.encode(short) else { return "\"?\"" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A colour as the JSON it arrived as, at most 80 characters.
    static func quoted(_ color: ArchiveColor) -> String {
        guard let data = try? WireCoding.encode(color) else { return "?" }
        let text = String(decoding: data, as: UTF8.self)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
