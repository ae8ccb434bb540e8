import Foundation
import WidgetHostProtocol

/// Unbuffered writes to stdout and stderr, so lines from `events` appear at once in a pipe.
enum Console {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// The daemon's answer as pretty-printed JSON with sorted keys and RFC 3339 dates.
    static func outputJSON(_ value: some Encodable) throws {
        output(try String(decoding: prettyEncoder.encode(value), as: UTF8.self))
    }

    /// One value as one compact JSON line (the `events --json` stream).
    static func outputJSONLine(_ value: some Encodable) throws {
        output(try String(decoding: WireCoding.encode(value), as: UTF8.self))
    }

    private static let prettyEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date))
        }
        return encoder
    }()
}
