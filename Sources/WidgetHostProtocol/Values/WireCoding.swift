import Foundation

/// The one JSON configuration both channels use: RFC 3339 dates, sorted keys (so that
/// the same message is the same bytes), no escaped slashes.
public enum WireCoding {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date))
        }
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\"\(text)\" is not an RFC 3339 date (e.g. 2026-02-15T08:00:00Z)")
            }
            return date
        }
        return decoder
    }()

    /// `encoder`'s bytes, written by `WireEncoder` (a fraction of the instructions); what that
    /// leaves to Foundation (a URL, `Data`, a NaN, …) is encoded, or refused, by `encoder`.
    public static func encode(_ value: some Encodable) throws -> Data {
        Data(try encodeBytes(value))
    }

    /// `encode(_:)` as bytes.
    public static func encodeBytes(_ value: some Encodable) throws -> [UInt8] {
        do {
            return try WireEncoder.encode(value)
        } catch {
            return Array(try encoder.encode(value))
        }
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder.decode(type, from: data)
    }
}
