import Foundation
import WidgetKit

/// One thing wrong with a config: where (a path into the JSON, such as
/// `layout.children[1].color`) and what to do about it.
public struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let message: String

    public var description: String { "\(path.isEmpty ? "the config" : path): \(message)" }
}

/// Every problem of a config, in document order.
public struct ConfigValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let problems: [ConfigProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Checks a widget config before it is saved (in the app) or rendered (in the widget):
/// a supported schema version, the required fields, known node types, hex colours, sound
/// placeholders and a nesting depth of at most 10. Collects every problem rather than
/// stopping at the first, so one round of fixes is enough.
public enum ConfigValidator {
    public static let supportedSchemaVersions = ["1.0"]
    public static let maximumDepth = 10

    public static func validate(_ data: Data) -> Result<WidgyConfig, ConfigValidationError> {
        let json: JSON
        do {
            json = try JSONDecoder().decode(JSON.self, from: data)
        } catch {
            return .failure(ConfigValidationError(problems: [
                ConfigProblem(path: "", message: "is not valid JSON (\(Self.reason(error))); fix the syntax")
            ]))
        }
        return validate(json)
    }

    public static func validate(_ json: JSON) -> Result<WidgyConfig, ConfigValidationError> {
        var checker = Checker()
        guard case .object = json else {
            return .failure(ConfigValidationError(problems: [
                ConfigProblem(path: "", message: "is \(json.kindName); a config is a JSON object with schema_version, widget_id, name, supported_families and layout")
            ]))
        }
        let version = checker.requiredString(json, "schema_version", at: "", example: "\"1.0\"")
        if let version, !supportedSchemaVersions.contains(version) {
            checker.problem(
                "schema_version",
                "\"\(version)\" is not supported; this Widgy reads schema \(supportedSchemaVersions.joined(separator: ", ")) (update the app, or regenerate the widget)")
        }
        let id = checker.requiredString(json, "widget_id", at: "", example: "\"morning-weather\"")
        if let id, !isValidID(id) {
            checker.problem(
                "widget_id",
                "\"\(id)\" cannot name a file; use 1 to 64 letters, digits, - and _, starting with a letter or digit")
        }
        let name = checker.requiredString(json, "name", at: "", example: "\"Morning weather\"")
        if name?.isEmpty == true { checker.problem("name", "is empty; give the widget a name") }
        let families = checker.families(json["supported_families"])
        if let background = json["background"] { checker.background(background) }
        if let layout = json["layout"] {
            checker.node(layout, at: "layout", depth: 1)
        } else {
            checker.problem("layout", "is required; add the root node, e.g. \"layout\": {\"type\": \"VStack\", \"children\": []}")
        }
        guard checker.problems.isEmpty, let version, let id, let name, let families, let layout = json["layout"] else {
            return .failure(ConfigValidationError(problems: checker.problems))
        }
        return .success(
            WidgyConfig(
                schemaVersion: version, widgetID: id, name: name, supportedFamilies: families,
                background: json["background"], layout: layout, source: json))
    }

    static func isValidID(_ id: String) -> Bool {
        guard (1...64).contains(id.count), let first = id.unicodeScalars.first, first.isASCII, first != "-", first != "_"
        else { return false }
        return id.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "-" || $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    public static func isHexColor(_ text: String) -> Bool {
        guard text.hasPrefix("#"), [4, 7, 9].contains(text.count) else { return false }
        return text.dropFirst().allSatisfy(\.isHexDigit)
    }

    private static func reason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError.map { "\($0.localizedDescription)" }) ?? context.debugDescription
        }
        return "\(error)"
    }
}

/// The walk over one config, collecting problems.
private struct Checker {
    var problems: [ConfigProblem] = []

    mutating func problem(_ path: String, _ message: String) {
        problems.append(ConfigProblem(path: path, message: message))
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func requiredString(_ object: JSON, _ key: String, at path: String, example: String) -> String? {
        let here = Self.join(path, key)
        guard let value = object[key] else {
            problem(here, "is required; add \"\(key)\": \(example)")
            return nil
        }
        guard case .string(let text) = value else {
            problem(here, "is \(value.kindName); it must be a string such as \(example)")
            return nil
        }
        return text
    }

    mutating func families(_ value: JSON?) -> [WidgetFamily]? {
        let known = WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
        guard let value else {
            problem("supported_families", "is required; add e.g. \"supported_families\": [\"systemSmall\"]")
            return nil
        }
        guard case .array(let items) = value, !items.isEmpty else {
            problem("supported_families", "must be a non-empty array of families (\(known))")
            return nil
        }
        var families: [WidgetFamily] = []
        for (index, item) in items.enumerated() {
            if case .string(let name) = item, let family = WidgetFamily(rawValue: name) {
                families.append(family)
            } else {
                problem("supported_families[\(index)]", "\(Self.shown(item)) is not a widget family; use one of \(known)")
            }
        }
        return families.count == items.count ? families : nil
    }

    mutating func background(_ value: JSON) {
        guard case .object = value else {
            problem("background", "is \(value.kindName); use {\"type\": \"color\", \"color\": \"#1A1A2E\"} or a gradient")
            return
        }
        switch value["type"] {
        case .string("color"):
            color(value["color"], at: "background.color", required: true)
        case .string("gradient"):
            guard case .array(let colors)? = value["colors"], colors.count >= 2 else {
                problem("background.colors", "a gradient needs an array of at least two colours, e.g. [\"#1A1A2E\", \"#16213E\"]")
                return
            }
            for (index, item) in colors.enumerated() { color(item, at: "background.colors[\(index)]", required: true) }
        case let other:
            problem("background.type", "\(other.map(Self.shown) ?? "is missing"); use \"color\" or \"gradient\"")
        }
    }

    mutating func color(_ value: JSON?, at path: String, required: Bool) {
        guard let value else {
            if required { problem(path, "is required; give a hex colour such as \"#FFD700\"") }
            return
        }
        guard case .string(let text) = value, ConfigValidator.isHexColor(text) else {
            problem(path, "\(Self.shown(value)) is not a hex colour; use #RGB, #RRGGBB or #RRGGBBAA, such as \"#FFD700\"")
            return
        }
    }

    mutating func node(_ value: JSON, at path: String, depth: Int) {
        guard depth <= ConfigValidator.maximumDepth else {
            problem(
                path,
                "is nested \(depth) levels deep, more than the maximum of \(ConfigValidator.maximumDepth); flatten the layout (fewer stacks inside stacks)")
            return
        }
        guard case .object(let fields) = value else {
            problem(path, "is \(value.kindName); a node is an object with a \"type\"")
            return
        }
        let types = NodeSchema.types.joined(separator: ", ")
        guard let typeValue = fields["type"] else {
            problem(Self.join(path, "type"), "is required; use one of \(types)")
            return
        }
        guard case .string(let type) = typeValue, let spec = NodeSchema.specs[type] else {
            problem(Self.join(path, "type"), "\(Self.shown(typeValue)) is not a node type; use one of \(types)")
            return
        }
        for (key, fieldType) in spec.required {
            guard let field = fields[key] else {
                problem(Self.join(path, key), "is required for a \(type) node; add \(NodeSchema.example(key, fieldType))")
                continue
            }
            self.field(field, fieldType, at: Self.join(path, key), depth: depth)
        }
        for (key, fieldType) in spec.optional {
            if let field = fields[key] { self.field(field, fieldType, at: Self.join(path, key), depth: depth) }
        }
        if type == "Gauge", case .number(let low)? = fields["min"], case .number(let high)? = fields["max"], low >= high {
            problem(Self.join(path, "max"), "\(Self.shown(.number(high))) must be greater than min (\(Self.shown(.number(low))))")
        }
        if type == "Conditional", case .string(let condition)? = fields["condition"],
            case .success(let pieces) = Placeholder.parse(condition), !pieces.contains(where: { if case .binding = $0 { true } else { false } })
        {
            problem(Self.join(path, "condition"), "\"\(condition)\" binds no data, so it never changes; use a placeholder such as \"{{weather.isRaining}}\"")
        }
    }

    mutating func field(_ value: JSON, _ type: NodeSchema.FieldType, at path: String, depth: Int) {
        switch (type, value) {
        case (.string, .string(let text)):
            placeholders(text, at: path)
        case (.number, .number), (.boundNumber, .number):
            break
        case (.nonNegativeNumber, .number(let number)):
            if number < 0 { problem(path, "\(Self.shown(value)) is negative; use 0 or more") }
        case (.integer, .number(let number)):
            if number.rounded() != number || number < 0 { problem(path, "\(Self.shown(value)) must be a whole number, 0 or more") }
        case (.boundNumber, .string(let text)):
            placeholders(text, at: path)
            if case .success(let pieces) = Placeholder.parse(text), pieces.count != 1 || pieces.first.map({ if case .binding = $0 { false } else { true } }) == true {
                problem(path, "\"\(text)\" must be a number or exactly one placeholder such as \"{{battery.level}}\"")
            }
        case (.color, _):
            color(value, at: path, required: true)
        case (.oneOf(let allowed), .string(let text)) where allowed.contains(text):
            break
        case (.oneOf(let allowed), _):
            problem(path, "\(Self.shown(value)) is not allowed; use one of \(allowed.joined(separator: ", "))")
        case (.children, .array(let items)):
            for (index, item) in items.enumerated() { node(item, at: "\(path)[\(index)]", depth: depth + 1) }
        case (.child, _):
            node(value, at: path, depth: depth + 1)
        case (.children, _):
            problem(path, "is \(value.kindName); it must be an array of nodes")
        case (.string, _):
            problem(path, "is \(value.kindName); it must be a string")
        case (.boundNumber, _):
            problem(path, "is \(value.kindName); it must be a number or a placeholder such as \"{{battery.level}}\"")
        case (.number, _), (.nonNegativeNumber, _), (.integer, _):
            problem(path, "is \(value.kindName); it must be a number")
        }
    }

    mutating func placeholders(_ text: String, at path: String) {
        if case .failure(let error) = Placeholder.parse(text) { problem(path, error.description) }
    }

    /// A value as an error message quotes it.
    static func shown(_ value: JSON) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: value.kindName
        }
    }
}
