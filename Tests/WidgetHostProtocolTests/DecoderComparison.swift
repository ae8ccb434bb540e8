import Foundation
import Testing

@testable import WidgetHostProtocol

/// Decodes one value both ways — `JSONValueDecoder`, and the round trip it replaced
/// (`WireCoding.encode`, then Foundation's `JSONDecoder` as `WireCoding.decoder`) — and says
/// what each gave, in a form that compares: the value's wire bytes, or the error's case, type,
/// coding path and description.
enum DecoderComparison {
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case error(String)

        var description: String {
            switch self {
            case .value(let text): "value \(text)"
            case .error(let text): "error \(text)"
            }
        }
    }

    static func foundation<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ show: (T) throws -> String) -> Outcome {
        do {
            return .value(try show(try WireCoding.decoder.decode(T.self, from: WireCoding.encode(value))))
        } catch {
            return .error(describe(error, foundation: true))
        }
    }

    static func ours<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ show: (T) throws -> String) -> Outcome {
        do {
            return .value(try show(try JSONValueDecoder.decode(T.self, from: value)))
        } catch {
            return .error(describe(error, foundation: false))
        }
    }

    /// Both outcomes for a wire type, compared by the bytes the decoded values encode to.
    static func outcomes<T: Codable>(_ type: T.Type, _ value: JSONValue) -> (foundation: Outcome, ours: Outcome) {
        let show = { (decoded: T) in String(decoding: try WireCoding.encode(decoded), as: UTF8.self) }
        return (foundation(T.self, value, show), ours(T.self, value, show))
    }

    /// Both outcomes for any type, compared by their wire bytes if they have them (a
    /// dictionary's description depends on its order), else by `String(reflecting:)`.
    static func reflected<T: Decodable>(_ type: T.Type, _ value: JSONValue) -> (foundation: Outcome, ours: Outcome) {
        let show = { (decoded: T) in
            guard let encodable = decoded as? any Encodable else { return String(reflecting: decoded) }
            return String(decoding: try WireCoding.encode(encodable), as: UTF8.self)
        }
        return (foundation(T.self, value, show), ours(T.self, value, show))
    }

    /// The one place the two differ, on purpose: a number that does not fit its type is
    /// "The given data was not valid JSON." at the top in this toolchain's Foundation, and
    /// "Parsed JSON number <…> does not fit in …." at the number's own path here. Both read as
    /// "a number that does not fit" for the comparison (`JSONValueDecoderTests` checks the path).
    static let doesNotFit = "dataCorrupted (a number that does not fit)"

    static func describe(_ error: any Error, foundation: Bool) -> String {
        guard let decoding = error as? DecodingError else { return "\(type(of: error)): \(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        }
        switch decoding {
        case .typeMismatch(let type, let context):
            return "typeMismatch \(type) at \(path(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "valueNotFound \(type) at \(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "keyNotFound \(key.stringValue) at \(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            if foundation, context.codingPath.isEmpty, context.debugDescription == "The given data was not valid JSON." {
                return doesNotFit
            }
            // Ours, or Foundation's own at a path (a `Decimal` is still Foundation's to read).
            if !foundation,
                context.debugDescription.hasPrefix("Parsed JSON number <")
                    || context.debugDescription == "The given data was not valid JSON."
            {
                return doesNotFit
            }
            return "dataCorrupted at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
