import Foundation
import WidgetHostProtocol

/// A configurable widget's values checked against its kind's intent schema (as `initialize`
/// declared it), before the extension ever sees them: every name is a parameter, every value
/// has its parameter's type (a string is read as the type wants, as the CLI's `--set` sends
/// them), every enum value is one of its cases, every required parameter has a value.
/// Parameters left out take their default. Entities whose choices come from a query are
/// checked against the query's answer separately (`entityChecks`).
public enum ConfigurationValidation {
    /// `changes` applied over `base` (a null removes a value), then checked and completed
    /// with defaults.
    public static func resolve(
        _ changes: IntentValues, over base: IntentValues = [:], schema: IntentSchema
    ) -> Result<IntentValues, ConfigurationError> {
        for name in changes.keys.sorted() where schema.parameter(named: name) == nil {
            return .failure(.unknownParameter(name, intent: schema.type, accepted: schema.parameters.map(\.name)))
        }
        var resolved: IntentValues = [:]
        for parameter in schema.parameters {
            var raw: JSONValue? = base[parameter.name]
            if let change = changes[parameter.name] {
                if case .null = change { raw = nil } else { raw = change }
            }
            guard let raw else {
                if let value = parameter.default, value != JSONValue.null {
                    resolved[parameter.name] = value
                } else if !parameter.optional {
                    return .failure(.missingValue(parameter.name, title: parameter.title))
                }
                continue
            }
            switch canonical(raw, for: parameter) {
            case .success(let value): resolved[parameter.name] = value
            case .failure(let error): return .failure(error)
            }
        }
        return .success(resolved)
    }

    /// The entity parameters whose values only the extension's query can vouch for.
    public static func entityChecks(_ values: IntentValues, schema: IntentSchema) -> [String] {
        schema.parameters.filter { $0.type == .entity && $0.options == nil && values[$0.name] != nil }.map(\.name)
    }

    /// Whether the query's options contain the value.
    public static func check(
        _ values: IntentValues, parameter: IntentParameterSchema, options: [IntentOption]
    ) -> ConfigurationError? {
        guard case .string(let id)? = values[parameter.name] else { return nil }
        if options.contains(where: { $0.id == id }) { return nil }
        return .notAnOption(parameter.name, value: id, options: options)
    }

    static func canonical(_ raw: JSONValue, for parameter: IntentParameterSchema) -> Result<JSONValue, ConfigurationError> {
        func wrong() -> Result<JSONValue, ConfigurationError> {
            .failure(.wrongType(parameter.name, expected: parameter.type, got: raw))
        }
        switch parameter.type {
        case .string:
            guard case .string = raw else { return wrong() }
            return .success(raw)
        case .integer:
            switch raw {
            case .integer: return .success(raw)
            case .number(let value) where value.rounded() == value && abs(value) < 1e15: return .success(.integer(Int(value)))
            case .string(let text):
                guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else { return wrong() }
                return .success(.integer(value))
            default: return wrong()
            }
        case .double:
            switch raw {
            case .number(let value) where value.isFinite: return .success(raw)
            case .integer(let value): return .success(.number(Double(value)))
            case .string(let text):
                guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else { return wrong() }
                return .success(.number(value))
            default: return wrong()
            }
        case .boolean:
            switch raw {
            case .bool: return .success(raw)
            case .string("true"), .string("yes"), .string("on"): return .success(.bool(true))
            case .string("false"), .string("no"), .string("off"): return .success(.bool(false))
            default: return wrong()
            }
        case .date:
            guard case .string(let text) = raw, let date = RFC3339.parse(text) else { return wrong() }
            return .success(.string(RFC3339.format(date)))
        case .enum, .entity:
            let id: String
            switch raw {
            case .string(let text): id = text
            case .integer(let value): id = String(value)
            default: return wrong()
            }
            if let options = parameter.options, !options.contains(where: { $0.id == id }) {
                return .failure(.notAnOption(parameter.name, value: id, options: options))
            }
            return .success(.string(id))
        }
    }
}

/// Why a configuration is refused; each sentence names the parameter and what is accepted.
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownParameter(String, intent: String, accepted: [String])
    case wrongType(String, expected: IntentValueType, got: JSONValue)
    case notAnOption(String, value: String, options: [IntentOption])
    case missingValue(String, title: String)
    /// The query that vouches for an entity could not be asked.
    case queryFailed(String, detail: String)

    public var description: String {
        switch self {
        case .unknownParameter(let name, let intent, let accepted):
            let list = accepted.isEmpty ? "it has no parameters" : "its parameters are " + accepted.joined(separator: ", ")
            return "\(intent) has no parameter \"\(name)\"; \(list)"
        case .wrongType(let name, let expected, let got):
            return "\(name) must be \(Self.describe(expected)), not \(Self.describe(got))"
        case .notAnOption(let name, let value, let options):
            let list =
                options.isEmpty
                ? "there are no choices now"
                : "choices are " + options.map { $0.title == $0.id ? $0.id : "\($0.id) (\($0.title))" }.joined(separator: ", ")
            return "\"\(value)\" is not a choice for \(name); \(list)"
        case .missingValue(let name, let title):
            return "\(name) (\(title)) needs a value; set it with \(name)=…"
        case .queryFailed(let name, let detail):
            return "could not check \(name) against the extension's query: \(detail)"
        }
    }

    static func describe(_ type: IntentValueType) -> String {
        switch type {
        case .string: "a string"
        case .integer: "an integer"
        case .double: "a number"
        case .boolean: "true or false"
        case .date: "an RFC 3339 date (2026-02-15T08:00:00Z)"
        case .enum: "one of its cases"
        case .entity: "an entity id"
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .string(let text): "\"\(text)\""
        case .array: "a list"
        case .object: "an object"
        }
    }
}
